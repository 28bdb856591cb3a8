#pragma once
// Entity definition files (.fgd, the Worldcraft / Hammer / TrenchBroom format): the classes
// a game's entities belong to, with their sizes and colours.
//
// What is read: `@BaseClass`, `@PointClass` and `@SolidClass` declarations (`@NPCClass`,
// `@KeyFrameClass`, `@MoveClass` and `@FilterClass` count as point classes), keywords in
// any case:
//   @PointClass attribute* = classname [: "description" (+ "more")*] [ [ properties ] ]
// Attributes used: base(A, B), size(x y z, x y z) (mins, maxs), size(x y z) (a box of that
// size centred on the origin, -x/2 .. x/2, as TrenchBroom reads it), color(r g b) (0..255).
// Any other attribute (model, studio, iconsprite, sprite, decal, flags, halfgridsnap, ...) is
// skipped with whatever balanced parentheses follow it; the properties block is skipped as
// balanced brackets, so every property syntax (choices, flags, Source input/output) passes.
// `@include` is not followed (a warning); `@mapsize`, `@MaterialExclusion`, `@AutoVisGroup`
// are skipped silently, other `@` declarations with a warning.
//
// Inheritance: a class takes its size and colour from its own attributes, else from its
// bases in the order listed (the first base that has one wins). Bases are looked up when the
// class is declared, among the classes declared before it (of any kind); a missing one is a
// warning. A later class of the same name replaces the earlier one.
//
// Every message is "file:line:column: ..." (1-based; columns count bytes; CR, LF and CRLF
// end lines). A declaration that cannot be read is skipped with a warning and reading goes
// on at the next `@` word. A size or colour that cannot be used (not numbers, not finite,
// coordinates beyond +-kMaxFgdCoordinate) is dropped with a warning and the class kept.
// Strings may span lines; `\"` is a quote and `\\` a backslash inside them.
#include "io/map_file.h"
#include "world/entity_class.h"

#include <string>
#include <string_view>
#include <vector>

namespace shallot {

struct FgdFile {
    EntityClassTable classes;          // @PointClass and @SolidClass entries, bases resolved
    std::vector<MapWarning> warnings;  // skipped pieces, each "file:line:column: ..."
};

// Largest size coordinate accepted (the default world bounds).
inline constexpr double kMaxFgdCoordinate = 65536;
// Warnings kept; past it one last warning says how many more there were.
inline constexpr size_t kMaxFgdWarnings = 1000;

// Parses `text` (the file's contents; `fileName` is for messages). A class that cannot be
// read is skipped with a warning and the rest is kept; throws std::runtime_error
// ("file:line:column: ...", the first problem) only when nothing usable is left of the file:
// no point or solid class and at least one declaration or piece of text that could not be
// read. An empty file, or one of comments only, gives an empty table.
FgdFile readFgd(std::string_view text, const std::string& fileName);

} // namespace shallot
