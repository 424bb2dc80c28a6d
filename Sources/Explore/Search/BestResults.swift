/// The `capacity` best of a stream of results, by `order` then `tie`, both ascending:
/// a bounded max-heap, so picking a page of n matches costs about n comparisons,
/// not a sort of all of them.
struct BestResults {
    struct Result {
        /// The rank, or the distance in metres.
        let order: Double
        /// The photo's rank in `photoID` order.
        let tie: Int32
        let photo: Int32

        func precedes(_ other: Result) -> Bool {
            order != other.order ? order < other.order : tie < other.tie
        }
    }

    let capacity: Int
    /// A max-heap: the worst kept result at the root.
    private var heap: [Result] = []

    init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(min(capacity, 1024))
    }

    mutating func offer(_ result: Result) {
        if heap.count < capacity {
            heap.append(result)
            siftUp(heap.count - 1)
        } else if let worst = heap.first, result.precedes(worst) {
            heap[0] = result
            siftDown(0)
        }
    }

    /// Whether `capacity` results are kept: only a better one enters now.
    var isFull: Bool { heap.count >= capacity }

    /// The worst kept result.
    var worst: Result? { heap.first }

    /// The kept results, best first.
    func sorted() -> [Result] {
        heap.sorted { $0.precedes($1) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].precedes(heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var largest = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < heap.count, heap[largest].precedes(heap[left]) { largest = left }
            if right < heap.count, heap[largest].precedes(heap[right]) { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
