// The glyphs a board's labels use (tile numbers, Sudoku digits 1-9 and A-G), 5 wide and 7
// high, for pictures drawn to pixels: no font file, so a PNG is the same on every machine.

enum PixelFont {
    static let width = 5
    static let height = 7
    /// Columns from one glyph's left edge to the next one's.
    static let advance = 6

    /// The glyph's rows, top first; "#" marks a pixel. Nil for a character it lacks.
    static func rows(of character: Character) -> [Substring]? {
        glyphs[character].map { $0.split(separator: " ") }
    }

    private static let glyphs: [Character: String] = [
        "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
        "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
        "2": ".###. #...# ....# ...#. ..#.. .#... #####",
        "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
        "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
        "5": "##### #.... ####. ....# ....# #...# .###.",
        "6": "..##. .#... #.... ####. #...# #...# .###.",
        "7": "##### ....# ...#. ..#.. .#... .#... .#...",
        "8": ".###. #...# #...# .###. #...# #...# .###.",
        "9": ".###. #...# #...# .#### ....# ...#. .##..",
        "A": ".###. #...# #...# ##### #...# #...# #...#",
        "B": "####. #...# #...# ####. #...# #...# ####.",
        "C": ".###. #...# #.... #.... #.... #...# .###.",
        "D": "###.. #..#. #...# #...# #...# #..#. ###..",
        "E": "##### #.... #.... ####. #.... #.... #####",
        "F": "##### #.... #.... ####. #.... #.... #....",
        "G": ".###. #...# #.... #.### #...# #...# .####",
    ]
}
