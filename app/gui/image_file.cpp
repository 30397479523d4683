#include "app/gui/image_file.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <stdexcept>

#include "core/params.h"
#include "core/file_io.h"

namespace ddalab::gui {

namespace {

void writeBytes(const QString& file, const QByteArray& bytes) {
  writeFileAtomically(file.toStdString(),
                      std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

}  // namespace

void writeImageFile(const QString& file, const QImage& image) {
  checkReplaceable(file.toStdString());  // refused before anything is drawn or encoded
  QByteArray format = QFileInfo(file).suffix().toLower().toLatin1();
  if (format.isEmpty()) format = "png";
  if (!QImageWriter::supportedImageFormats().contains(format))
    throw InputError(file.toStdString(),
                     "expected a file name ending in .png (or .jpg, .bmp, "
                     ".svg for charts), got ." +
                         format.toStdString());
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, format.constData()))
    throw std::runtime_error(file.toStdString() + ": the image could not be encoded as " +
                             format.toStdString());
  writeBytes(file, bytes);
}

void writeSvgFile(const QString& file, QSize size, const QString& title,
                  const std::function<void(QPainter&)>& paint) {
  checkReplaceable(file.toStdString());
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    if (!title.isEmpty()) generator.setTitle(title);
    QPainter painter;
    if (!painter.begin(&generator))
      throw std::runtime_error(file.toStdString() + ": the SVG could not be drawn");
    paint(painter);
    if (!painter.end())
      throw std::runtime_error(file.toStdString() + ": the SVG could not be drawn");
  }
  writeBytes(file, bytes);
}

}  // namespace ddalab::gui
