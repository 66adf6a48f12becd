// Cutting a list into pieces, for messages that must stay a bounded size.

extension Array {
    /// The array cut into consecutive pieces of `size` elements (the last may be shorter).
    func chunks(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
