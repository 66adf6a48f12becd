// The climb's changes to a layout. Counted over six 30-move puzzles (72,000 changes), the
// share of each kind that brought the hardest length closer to the target, and the share that
// opened the cluster past its budget:
//
//   change               closer   over budget
//   remove a block       0.3%     52%          (frees space: big, easy clusters)
//   remove and add       1.5%     34%
//   add a block          2.8%     10%
//   move a block         2.7%      2%          (closer: of the moves that found a free place)
//
// so removing alone is rare, and a move or an add always picks among the places that fit
// rather than at a random cell (most random cells overlap something, and a failed change
// used to count against the climb's patience without being tried).

extension RushHourGenerator {
    /// The layout with one random change, or nil when the chosen change has no room.
    func changed(_ puzzle: RushHourPuzzle, using random: inout SplitMix64) -> RushHourPuzzle? {
        var blocks = puzzle.blocks
        let movable = blocks.indices.filter { blocks[$0].name != "A" && !blocks[$0].isFixed }
        let roll = random.below(20)
        switch roll {
        case 0..<1, 1..<5:
            // Remove (one time in twenty), or remove and add (four).
            guard !movable.isEmpty else { return nil }
            blocks.remove(at: movable[random.below(movable.count)])
            if roll >= 1 {
                guard let added = randomPlacement(among: blocks, using: &random) else { return nil }
                blocks.append(added)
            }
        case 5..<12:
            guard let added = randomPlacement(among: blocks, using: &random) else { return nil }
            blocks.append(added)
        default:
            guard !movable.isEmpty else { return nil }
            let index = movable[random.below(movable.count)]
            let others = blocks.enumerated().filter { $0.offset != index }.map(\.element)
            guard let moved = randomPlacement(among: others, like: blocks[index], using: &random) else { return nil }
            blocks[index] = moved
        }
        return relettered(blocks)
    }

    /// A random free place for a block shaped like `shape` (or of random axis and length: 2,
    /// or 3 one time in three), never horizontal on the exit row; nil when none fits.
    func randomPlacement(
        among blocks: [RushHourBlock], like shape: RushHourBlock? = nil, using random: inout SplitMix64
    ) -> RushHourBlock? {
        let occupied = Set(blocks.flatMap(\.cells))
        let vertical = shape.map { $0.orientation == .vertical } ?? random.coinFlip()
        let length = shape?.length ?? (random.below(3) == 0 ? 3 : 2)
        var places: [RushHourBlock] = []
        for row in 0..<height {
            for column in 0..<width where vertical || row != exit.row {
                let block = RushHourBlock(
                    name: shape?.name ?? "?", orientation: vertical ? .vertical : .horizontal,
                    length: length, row: row, column: column)
                if fits(block, occupied), block != shape { places.append(block) }
            }
        }
        return places.isEmpty ? nil : places[random.below(places.count)]
    }

    /// The blocks lettered again in order (A kept, walls kept), as a checked puzzle.
    func relettered(_ blocks: [RushHourBlock]) -> RushHourPuzzle? {
        var blocks = blocks
        var name = Character("B")
        for index in blocks.indices where blocks[index].name != "A" && !blocks[index].isFixed {
            guard name <= "Z" else { return nil }
            blocks[index].name = name
            name = Character(UnicodeScalar(name.asciiValue! + 1))
        }
        return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
    }
}
