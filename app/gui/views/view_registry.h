#pragma once
// Which view shows which game: the built-in boards, those a plug-in's view library registers,
// and GenericView for any other game. Apart from game_view.h so that the boards, which derive
// from GameView, and the list of them do not include each other.
#include <QWidget>
#include <string>

#include "app/gui/views/game_view.h"

namespace ddalab::gui {

// From now on, makeGameView(gameId) makes its views with `make` (a plug-in's view library).
void registerGameView(const std::string& gameId, ViewFactory make);

// The view of the game `gameId`: its board, or the generic view for a game without one.
GameView* makeGameView(const std::string& gameId, QWidget* parent);

}  // namespace ddalab::gui
