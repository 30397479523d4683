#include "app/gui/batch/start_page.h"
#include "app/gui/batch/batch_files.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ddalab::gui {

namespace {

QPushButton* linkButton(const QString& text, const QString& tip, QWidget* parent) {
  auto* button = new QPushButton(text, parent);
  button->setToolTip(tip);
  button->setFlat(true);
  button->setStyleSheet("text-align: left; padding: 3px 8px;");
  button->setCursor(Qt::PointingHandCursor);
  return button;
}

}  // namespace

QString StartPage::shippedExperiments() {
  return shippedExperimentsFolder();
}

StartPage::StartPage(QWidget* parent) : QWidget(parent), recent_(new QVBoxLayout) {
  auto* title = new QLabel("<h2>ddalab: dynamic difficulty adjustment, measured</h2>", this);
  auto* text = new QLabel(
      "Queue experiments (game × players × environment player × coefficients × games), run "
      "them on every core and compare them by the fun metrics — with the paired tests, score "
      "intervals and detectability the command line prints. Finished games are kept: the "
      "queue and its games are here again at the next start.",
      this);
  text->setWordWrap(true);
  const QString shipped = shippedExperiments();
  const auto shippedButton = [&](const QString& label, const QString& file, const QString& tip) {
    auto* button = linkButton(label, tip + "\n" + shipped + "/" + file, this);
    button->setEnabled(QFileInfo::exists(shipped + "/" + file));
    connect(button, &QPushButton::clicked, this,
            [this, shipped, file] { emit openRequested(shipped + "/" + file); });
    return button;
  };
  auto* quick = shippedButton("▶ The quick comparison — no DDA against E-HillClimber in Ludo",
                              "quick.json", "Two experiments of 200 games: Start (F5) runs them");
  auto* thesis = shippedButton(
      "▶ The thesis study — every comparison of the master thesis", "thesis/all.json",
      "Every comparison of the thesis (Ludo, Lost Cities, Maze) and HexaLines: its tables and "
      "charts, with their uncertainty");
  auto* play = linkButton("▶ Play a game against the AIs while an environment player steers",
                          "Game mode (Ctrl+2)", this);
  connect(play, &QPushButton::clicked, this, &StartPage::playRequested);
  auto* hint = new QLabel(
      "Or build a queue: choose a game and the number of games in the toolbar, then Add "
      "(Ctrl+N); Settings… (Ctrl+E or a double-click) edits a row. Help → Keyboard shortcuts "
      "lists every key.",
      this);
  hint->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(24, 12, 24, 12);
  for (QWidget* w : std::initializer_list<QWidget*>{title, text, quick, thesis, play, hint})
    layout->addWidget(w);
  layout->addWidget(new QLabel("<b>Recent batch files</b>", this));
  layout->addLayout(recent_);
  layout->addStretch();
}

void StartPage::setRecent(const QStringList& files) {
  while (QLayoutItem* item = recent_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  if (files.isEmpty()) recent_->addWidget(new QLabel("none yet", this));
  for (const QString& file : files) {
    auto* button = linkButton(QFileInfo(file).fileName() + " — " + QFileInfo(file).absolutePath(),
                              "Open " + file, this);
    button->setEnabled(QFileInfo::exists(file));
    connect(button, &QPushButton::clicked, this, [this, file] { emit openRequested(file); });
    recent_->addWidget(button);
  }
}

}  // namespace ddalab::gui
