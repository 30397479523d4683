#include "app/gui/views/view_registry.h"

#include <map>

#include "app/gui/views/generic_view.h"
#include "app/gui/views/hexalines_view.h"
#include "app/gui/views/lost_cities_view.h"
#include "app/gui/views/ludo_view.h"
#include "app/gui/views/maze_view.h"

namespace ddalab::gui {

namespace {

// The views view libraries registered, by game id (the GUI thread's only).
std::map<std::string, ViewFactory>& registeredViews() {
  static std::map<std::string, ViewFactory> views;
  return views;
}

}  // namespace

void registerGameView(const std::string& gameId, ViewFactory make) {
  registeredViews()[gameId] = std::move(make);
}

GameView* makeGameView(const std::string& gameId, QWidget* parent) {
  // A new game's view: one file in views/ and one line here; a plug-in's: registerGameView.
  if (gameId == "ludo") return new LudoView(parent);
  if (gameId == "lost-cities") return new LostCitiesView(parent);
  if (gameId == "maze") return new MazeView(parent);
  if (gameId == "hexalines") return new HexaLinesView(parent);
  if (const auto view = registeredViews().find(gameId); view != registeredViews().end())
    return view->second(parent);
  return new GenericView(parent);  // any other game, a plug-in's included
}

}  // namespace ddalab::gui
