#include "app/gui/study/study_dialogs.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/gui/study/study_analysis_view.h"
#include "studies/analysis.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

fs::path sessionFolder(const QString& studyFolder, const QString& id) {
  QString safe;
  for (QChar c : id.trimmed())
    safe += c.isLetterOrNumber() || c == '-' || c == '_' ? c : QChar('_');
  return fs::path(studyFolder.toStdString()) / safe.toStdString();
}

namespace {

// A line edit with a Browse… button beside it.
QWidget* withBrowse(QLineEdit* edit, QWidget* parent, std::function<QString()> pick) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  auto* browse = new QPushButton("Browse…", row);
  QObject::connect(browse, &QPushButton::clicked, row, [edit, pick] {
    if (const QString chosen = pick(); !chosen.isEmpty()) edit->setText(chosen);
  });
  layout->addWidget(browse);
  return row;
}

}  // namespace

StartStudyDialog::StartStudyDialog(QWidget* parent)
    : QDialog(parent),
      protocol_(new QLineEdit(this)),
      folder_(new QLineEdit(this)),
      participant_(new QLineEdit(this)),
      problem_(new QLabel(this)) {
  setWindowTitle("Run a study session");
  auto* form = new QFormLayout;
  form->addRow("Protocol", withBrowse(protocol_, this, [this] {
                 return QFileDialog::getOpenFileName(this, "Study protocol", {},
                                                     "Study protocols (*.json)");
               }));
  form->addRow("Study folder", withBrowse(folder_, this, [this] {
                 return QFileDialog::getExistingDirectory(this, "Folder of the study's sessions");
               }));
  form->addRow("Participant id", participant_);
  participant_->setPlaceholderText("e.g. P07 (a new id starts a session, a known one resumes it)");
  protocol_->setMinimumWidth(380);
  problem_->setWordWrap(true);
  problem_->setStyleSheet("color: #a00000");
  auto* note = new QLabel(
      "The participant then plays the protocol's games with the conditions hidden and answers "
      "the questionnaire after each; every game and answer is kept the moment it exists.",
      this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText("Start");
  connect(buttons, &QDialogButtonBox::accepted, this, &StartStudyDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(problem_);
  layout->addWidget(buttons);
}

void StartStudyDialog::setProtocol(const QString& file) {
  protocol_->setText(file);
}
void StartStudyDialog::setStudyFolder(const QString& folder) {
  folder_->setText(folder);
}
void StartStudyDialog::setParticipant(const QString& id) {
  participant_->setText(id);
}

QString StartStudyDialog::protocolFile() const {
  return protocol_->text().trimmed();
}

void StartStudyDialog::accept() {
  problem_->clear();
  if (protocol_->text().trimmed().isEmpty() || folder_->text().trimmed().isEmpty() ||
      participant_->text().trimmed().isEmpty()) {
    problem_->setText("Give the protocol, the study folder and the participant's id.");
    return;
  }
  try {
    const StudyProtocol protocol = loadStudyProtocol(protocol_->text().trimmed().toStdString());
    const QString id = participant_->text().trimmed();
    session_ = StudySession::open(sessionFolder(folder_->text().trimmed(), id), protocol,
                                  id.toStdString());
  } catch (const std::exception& e) {
    problem_->setText(QString::fromStdString(e.what()));
    return;
  }
  QDialog::accept();
}

SessionsDialog::SessionsDialog(const QString& studyFolder, QWidget* parent)
    : QDialog(parent),
      folder_(studyFolder),
      table_(new QTableWidget(this)),
      summary_(new QLabel(this)),
      resume_(new QPushButton("Resume", this)) {
  setWindowTitle("Study sessions: " + studyFolder);
  table_->setColumnCount(5);
  table_->setHorizontalHeaderLabels(
      {"Participant", "Number", "Games answered", "Complete", "Last change"});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setVisible(false);
  auto* analyse = new QPushButton("Analyse", this);
  auto* close = new QPushButton("Close", this);
  connect(close, &QPushButton::clicked, this, &QDialog::accept);
  connect(resume_, &QPushButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row < 0) return;
    emit resume(table_->item(row, 0)->data(Qt::UserRole).toString());
    accept();
  });
  connect(analyse, &QPushButton::clicked, this, [this] {
    try {
      const std::vector<fs::path> folders = {fs::path(folder_.toStdString())};
      auto* view = new StudyAnalysisView(analyzeStudy(readStudySessions(folders)), this);
      view->setAttribute(Qt::WA_DeleteOnClose);
      view->show();
    } catch (const std::exception& e) {
      QMessageBox::warning(this, "Analysis", QString::fromStdString(e.what()));
    }
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(summary_, 1);
  buttons->addWidget(resume_);
  buttons->addWidget(analyse);
  buttons->addWidget(close);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_);
  layout->addLayout(buttons);
  resize(720, 420);
  refresh();
}

void SessionsDialog::refresh() {
  table_->setRowCount(0);
  std::vector<fs::path> folders;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder_.toStdString(), error))
    if (entry.is_directory() && fs::exists(entry.path() / "session.json"))
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  size_t complete = 0;
  for (const fs::path& folder : folders) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    try {
      const StudySession s = StudySession::read(folder);
      auto* who = new QTableWidgetItem(QString::fromStdString(s.participant()));
      who->setData(Qt::UserRole, QString::fromStdString(folder.string()));
      table_->setItem(row, 0, who);
      table_->setItem(row, 1, new QTableWidgetItem(QString::number(s.ordinal() + 1)));
      table_->setItem(
          row, 2, new QTableWidgetItem(QString("%1 of %2").arg(s.answered()).arg(s.plan().size())));
      table_->setItem(row, 3, new QTableWidgetItem(s.complete() ? "yes" : "no"));
      complete += s.complete();
      QDateTime last;
      for (const auto& entry : fs::directory_iterator(folder, error))
        last =
            std::max(last, QFileInfo(QString::fromStdString(entry.path().string())).lastModified());
      table_->setItem(row, 4, new QTableWidgetItem(last.toString("yyyy-MM-dd hh:mm")));
    } catch (const std::exception& e) {
      auto* bad = new QTableWidgetItem(QString::fromStdString(folder.filename().string()));
      bad->setData(Qt::UserRole, QString::fromStdString(folder.string()));
      table_->setItem(row, 0, bad);
      table_->setItem(row, 4, new QTableWidgetItem(QString("unreadable: %1").arg(e.what())));
    }
  }
  table_->resizeColumnsToContents();
  summary_->setText(QString("%1 session(s), %2 complete").arg(folders.size()).arg(complete));
  resume_->setEnabled(!folders.empty());
  if (!folders.empty()) table_->selectRow(0);
}

}  // namespace ddalab::gui
