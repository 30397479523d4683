#pragma once
// The researcher's side of a user study in ddalab-gui: starting a participant's session (the
// protocol, the study folder, the participant's id) and the list of a study's sessions with their
// progress, from which sessions are resumed and analysed.
#include <QDialog>
#include <QString>
#include <filesystem>
#include <optional>

#include "studies/study.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

// File → Run study…: which protocol, where the study's sessions live, who plays now. The id is
// the researcher's (a platform's id: hashed in the exports) or, left empty or filled by New id, a
// generated pseudonym. Accepted only with a valid protocol; the participant's session folder is
// <study>/<id>.
class StartStudyDialog : public QDialog {
  Q_OBJECT
 public:
  explicit StartStudyDialog(QWidget* parent = nullptr);
  void setProtocol(const QString& file);
  void setStudyFolder(const QString& folder);
  void setParticipant(const QString& id);
  // The session opened (created or resumed) once accepted.
  const std::optional<StudySession>& session() const { return session_; }
  QLabel* problem() const { return problem_; }
  QLineEdit* participantField() const { return participant_; }
  QPushButton* newIdButton() const { return newId_; }
  // The protocol file as given (remembered for the next session).
  QString protocolFile() const;

  void accept() override;

 private:
  QLineEdit* protocol_;
  QLineEdit* folder_;
  QLineEdit* participant_;
  QPushButton* newId_;
  QString generated_;  // the id New id filled in last (still generated while unchanged)
  QLabel* problem_;
  std::optional<StudySession> session_;
};

// File → Study sessions…: the sessions of a study folder (participant, number, games answered of
// those planned, status, last change), resumed, marked as dropped out or analysed from here.
class SessionsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SessionsDialog(const QString& studyFolder, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }
  QPushButton* markDroppedOutButton() const { return markDroppedOut_; }
  // The table's columns.
  enum Column { Participant, Number, Answered, Status, LastChange };
  // Lists the sessions again.
  void refresh();
  // Asks, then records that the selected session's participant left (StudySession::recordDropout
  // "withdrawn"); only for a session still in progress.
  void markDroppedOut();

 signals:
  // Resume the session in `folder`.
  void resume(const QString& folder);

 private:
  // Mark as dropped out is offered for a session in progress only.
  void selectionChanged();

  QString folder_;
  QTableWidget* table_;
  QLabel* summary_;
  QPushButton* resume_;
  QPushButton* markDroppedOut_;
};

// The session folder of participant `id` in `studyFolder` (the id made safe for a folder name).
std::filesystem::path sessionFolder(const QString& studyFolder, const QString& id);

}  // namespace ddalab::gui
