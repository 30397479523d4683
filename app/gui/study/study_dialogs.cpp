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
#include "app/gui/study/study_run.h"
#include "studies/allocation.h"
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

// A line edit with `button` beside it.
QWidget* withButton(QLineEdit* edit, QPushButton* button) {
  auto* row = new QWidget(edit->parentWidget());
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  layout->addWidget(button);
  return row;
}

// A line edit with a Browse… button beside it that fills in what `pick` chose.
QWidget* withBrowse(QLineEdit* edit, QWidget* parent, std::function<QString()> pick) {
  auto* browse = new QPushButton("Browse…", parent);
  QObject::connect(browse, &QPushButton::clicked, parent, [edit, pick] {
    if (const QString chosen = pick(); !chosen.isEmpty()) edit->setText(chosen);
  });
  return withButton(edit, browse);
}

}  // namespace

StartStudyDialog::StartStudyDialog(QWidget* parent)
    : QDialog(parent),
      protocol_(new QLineEdit(this)),
      folder_(new QLineEdit(this)),
      participant_(new QLineEdit(this)),
      newId_(new QPushButton("New id", this)),
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
  form->addRow("Participant id", withButton(participant_, newId_));
  participant_->setPlaceholderText("empty: a new pseudonymous id; a known id resumes its session");
  newId_->setToolTip("A new pseudonymous id (p- and 12 random characters), never a name");
  connect(newId_, &QPushButton::clicked, this, [this] {
    generated_ = QString::fromStdString(generateParticipantId());
    participant_->setText(generated_);
  });
  protocol_->setMinimumWidth(380);
  problem_->setWordWrap(true);
  problem_->setTextFormat(Qt::PlainText);  // a refusal may quote the protocol's texts
  problem_->setStyleSheet("color: #a00000");
  auto* note = new QLabel(
      "The participant then plays the protocol's games with the conditions hidden and answers "
      "the questionnaire after each; every game and answer is kept the moment it exists. The "
      "window stays the participant's, menus hidden and its close box off, until you press " +
          StudyRun::endKeys().toString(QKeySequence::NativeText) + ".",
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
  if (protocol_->text().trimmed().isEmpty() || folder_->text().trimmed().isEmpty()) {
    problem_->setText("Give the protocol and the study folder.");
    return;
  }
  try {
    const StudyProtocol protocol = loadStudyProtocol(protocol_->text().trimmed().toStdString());
    if (participant_->text().trimmed().isEmpty()) newId_->click();
    const QString id = participant_->text().trimmed();
    const auto origin =
        id == generated_ ? StudySession::IdOrigin::Generated : StudySession::IdOrigin::Given;
    session_ = StudySession::open(sessionFolder(folder_->text().trimmed(), id), protocol,
                                  id.toStdString(), origin);
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
      resume_(new QPushButton("Resume", this)),
      markDroppedOut_(new QPushButton("Mark as dropped out", this)) {
  setWindowTitle("Study sessions: " + studyFolder);
  table_->setColumnCount(5);
  table_->setHorizontalHeaderLabels(
      {"Participant", "Number", "Games answered", "Status", "Last change"});
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
  buttons->addWidget(markDroppedOut_);
  markDroppedOut_->setToolTip(
      "The participant left: their order row goes to a later participant (games and answers "
      "so far are kept)");
  connect(markDroppedOut_, &QPushButton::clicked, this, &SessionsDialog::markDroppedOut);
  connect(table_, &QTableWidget::currentCellChanged, this, [this] { selectionChanged(); });
  buttons->addWidget(analyse);
  buttons->addWidget(close);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_);
  layout->addLayout(buttons);
  resize(720, 420);
  refresh();
}

namespace {

// The participant item's role that says whether its session may be marked as dropped out.
constexpr int kMarkable = Qt::UserRole + 1;

}  // namespace

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
    const auto cell = [&](Column column, const QString& text) {
      table_->setItem(row, column, new QTableWidgetItem(text));
      return table_->item(row, column);
    };
    try {
      const StudySession s = StudySession::read(folder);
      QTableWidgetItem* who = cell(Participant, QString::fromStdString(s.participant()));
      who->setData(Qt::UserRole, QString::fromStdString(folder.string()));
      const SessionStep step = s.step();
      who->setData(kMarkable, !sessionEnded(step));
      cell(Number, QString::number(s.ordinal()));  // as allocation.jsonl counts: from 0
      cell(Answered, QString("%1 of %2").arg(s.answered()).arg(s.plan().size()));
      cell(Status, QString::fromStdString(s.statusText()));
      complete += step == SessionStep::Complete;
      QDateTime last;
      for (const auto& entry : fs::directory_iterator(folder, error))
        last =
            std::max(last, QFileInfo(QString::fromStdString(entry.path().string())).lastModified());
      cell(LastChange, last.toString("yyyy-MM-dd hh:mm"));
    } catch (const std::exception& e) {
      cell(Participant, QString::fromStdString(folder.filename().string()))
          ->setData(Qt::UserRole, QString::fromStdString(folder.string()));
      cell(LastChange, QString("unreadable: %1").arg(e.what()));
    }
  }
  table_->resizeColumnsToContents();
  summary_->setText(QString("%1 session(s), %2 complete").arg(folders.size()).arg(complete));
  resume_->setEnabled(!folders.empty());
  if (!folders.empty()) table_->selectRow(0);
  selectionChanged();
}

void SessionsDialog::selectionChanged() {
  const int row = table_->currentRow();
  markDroppedOut_->setEnabled(row >= 0 && table_->item(row, Participant)->data(kMarkable).toBool());
}

void SessionsDialog::markDroppedOut() {
  const int row = table_->currentRow();
  if (row < 0 || !table_->item(row, Participant)->data(kMarkable).toBool()) return;
  const QString who = table_->item(row, Participant)->text();
  if (QMessageBox::question(this, "Mark as dropped out",
                            "Mark participant " + who +
                                " as dropped out (withdrawn)? Their games and answers so far are "
                                "kept; their order row goes to a later participant, and their "
                                "session cannot be resumed.",
                            QMessageBox::Yes | QMessageBox::Cancel,
                            QMessageBox::Cancel) != QMessageBox::Yes)
    return;
  try {
    StudySession::read(table_->item(row, Participant)->data(Qt::UserRole).toString().toStdString())
        .recordDropout("withdrawn");
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Mark as dropped out", QString::fromStdString(e.what()));
  }
  refresh();
  table_->selectRow(row);
}

}  // namespace ddalab::gui
