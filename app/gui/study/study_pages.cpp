#include "app/gui/study/study_pages.h"

#include <QPushButton>
#include <QTextBrowser>

#include "app/gui/text.h"

namespace ddalab::gui {

ConsentPage::ConsentPage(const QString& text, const QString& agree, const QString& decline,
                         QWidget* parent)
    : StudyPage("Taking part in this study", "Please read this before you decide.", parent) {
  QTextBrowser* shown = addText(text);
  // Decline first, agree last (where a dialog's going-on button is): neither is the default.
  const auto answer = [this](bool agreed) {
    if (answered()) return;  // the first click counts
    agreed_ = agreed;
    accept();
  };
  connect(addButton(buttonText(decline)), &QPushButton::clicked, this, [answer] { answer(false); });
  connect(addButton(buttonText(agree)), &QPushButton::clicked, this, [answer] { answer(true); });
  fitToText(shown);
}

TextPage::TextPage(const QString& title, const QString& heading, const QString& text,
                   const QString& button, QWidget* parent)
    : StudyPage(title, heading, parent) {
  QTextBrowser* shown = addText(text);
  connect(addButton(button), &QPushButton::clicked, this, &QDialog::accept);
  fitToText(shown);
}

}  // namespace ddalab::gui
