#pragma once
// How ddalab-gui writes images (screenshots, chart exports): encoded in memory, then written
// through the results library's checked file layer (core/file_io.h) as every file of the CLI
// is: complete under its final name or absent, and only onto a missing path or a regular file
// (a FIFO, a symbolic link, a folder or a device is refused, never written through or replaced).
#include <QImage>
#include <QSize>
#include <QString>
#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ddalab::gui {

// Writes `image` to `file` in the format its suffix names (PNG without one). Throws InputError
// for a path that is not replaceable or a suffix no image writer knows, WriteError when the
// write fails.
void writeImageFile(const QString& file, const QImage& image);

// Writes to `file` as SVG (of `size`, titled `title`) what `paint` draws. Throws as above.
void writeSvgFile(const QString& file, QSize size, const QString& title,
                  const std::function<void(QPainter&)>& paint);

}  // namespace ddalab::gui
