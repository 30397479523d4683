#pragma once
// Small file helpers the Qt Tests share: a file's bytes, and writing bytes as a file.
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

namespace ddalab::gui {

// The bytes of `file` (empty when it cannot be read).
inline QByteArray bytesOf(const QString& file) {
  QFile f(file);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes `bytes` as `file`, replacing it; fails the test when it cannot be opened.
inline void write(const QString& file, const QByteArray& bytes) {
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(bytes);
}

}  // namespace ddalab::gui
