#pragma once
// Questionnaire instruments as data (docs/user-study.md, "Instruments"): a file
// studies/instruments/<id>.json (format ddalab-instrument/1) names an instrument's source and
// licence, its items with their scale and anchors, its subscales and its reverse-scored items. The
// shipped ones are built into ddalab; a protocol names them by id or gives a file of its own.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/params.h"

namespace ddalab {

inline constexpr const char* kInstrumentFormat = "ddalab-instrument/1";

// A questionnaire item: its wording and its scale.
struct StudyItem {
  enum class Scale { Likert5, Likert7, Slider100 };
  std::string key;   // the column in answers.csv and the analysis ("enjoyment")
  std::string text;  // what the participant reads ("" while an instrument's text is not filled in)
  Scale scale = Scale::Likert7;
  std::string low, high;             // the anchors of the scale's ends
  int from = 1;                      // a Likert scale's first point (0 or 1); a slider's is 0
  std::vector<std::string> anchors;  // a label per point of a Likert scale (empty: low, high only)
  bool reversed = false;             // scored as min + max - answer in its subscale
  std::string instrument;            // the instrument's id ("" for the protocol's own items)

  int min() const { return scale == Scale::Slider100 ? 0 : from; }
  int max() const {
    return scale == Scale::Slider100 ? 100 : from + (scale == Scale::Likert5 ? 4 : 6);
  }
  double midpoint() const { return (min() + max()) / 2.0; }
  // The answer as its subscale counts it: reversed where the instrument says so.
  double scored(double answer) const { return reversed ? min() + max() - answer : answer; }
};

// The scale named `name` in a protocol or an instrument file ("likert5", "likert7",
// "slider100"); none for any other name (each reader says what it expected there).
std::optional<StudyItem::Scale> studyScaleByName(const std::string& name);
// The name of `scale` as those files and the web page spell it.
const char* studyScaleName(StudyItem::Scale scale);

// A subscale: the mean of its items (reverse-scored ones reversed), analysed like an item.
struct StudySubscale {
  std::string key;   // its column in the analysis ("igeq_competence")
  std::string name;  // "Competence"
  std::string instrument;
  std::vector<size_t> items;  // indexes into the protocol's items
};

struct StudyInstrument {
  std::string id, name, citation, licence;
  bool textsIncluded = false;  // whether the licence let the item texts be shipped
  std::vector<StudyItem> items;
  std::vector<StudySubscale> subscales;  // indexes into `items`
  Json document;                         // the file as validated (what a protocol records)
};

// Reads and validates an instrument; errors (InputError) name `source`, the JSON path and what was
// expected. `chance` replaces "{chance}" in item texts ("dice", "cards").
StudyInstrument parseInstrument(const Json& document, const std::string& source,
                                const std::string& chance = "chance device");
StudyInstrument loadInstrumentFile(const std::filesystem::path& file,
                                   const std::string& chance = "chance device");
// The ids of the instruments built into ddalab (studies/instruments/*.json).
std::vector<std::string> builtinInstrumentIds();
// The document of built-in instrument `id`; InputError at `where` naming the valid ids otherwise.
Json builtinInstrument(const std::string& id, const std::string& where);

}  // namespace ddalab
