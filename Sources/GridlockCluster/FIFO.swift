// A first-in first-out queue on an array and a head index: taking from the front is O(1), and
// the taken slots are dropped in bulk once they are half of the array.

struct FIFO<Element> {
    private var elements: [Element] = []
    private var head = 0

    init() {}

    var isEmpty: Bool { head == elements.count }
    var count: Int { elements.count - head }
    var first: Element? { isEmpty ? nil : elements[head] }
    /// The elements, first to last.
    var contents: ArraySlice<Element> { elements[head...] }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head >= 1_024, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Puts `element` back in front: O(1) when something was taken from the front before.
    mutating func pushFront(_ element: Element) {
        if head > 0 {
            head -= 1
            elements[head] = element
        } else {
            elements.insert(element, at: 0)
        }
    }

    /// Puts `elements` back in front, in their order.
    mutating func prepend(contentsOf front: [Element]) {
        elements.replaceSubrange(..<head, with: front)
        head = 0
    }

    /// Keeps only the elements `condition` accepts, in order.
    mutating func keep(where condition: (Element) -> Bool) {
        elements = elements[head...].filter(condition)
        head = 0
    }

    mutating func removeAll() {
        elements.removeAll()
        head = 0
    }
}
