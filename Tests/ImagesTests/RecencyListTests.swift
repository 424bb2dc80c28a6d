import Testing
import TestSupport

@testable import Images

/// The eviction order against its brute-force twin, a plain array, on many seeded random
/// sequences of appends, touches and removals.
@Suite struct RecencyListTests {
    @Test(arguments: 0..<40)
    func theListKeepsTheOrderAnArrayKeeps(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var list = RecencyList()
        var model: [Int] = []
        for _ in 0..<400 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let slot = list.append()
                #expect(!model.contains(slot), "a slot in use was handed out again")
                model.append(slot)
            case 4..<7 where !model.isEmpty:
                let slot = model.randomElement(using: &generator)!
                list.touch(slot)
                model.removeAll { $0 == slot }
                model.append(slot)
            case 7..<9 where !model.isEmpty:
                let slot = model.randomElement(using: &generator)!
                list.remove(slot)
                model.removeAll { $0 == slot }
            default:
                if let first = list.first {
                    list.remove(first)
                    #expect(first == model.removeFirst())
                } else {
                    #expect(model.isEmpty)
                }
            }
            #expect(list.inOrder == model)
            #expect(list.count == model.count)
            #expect(list.first == model.first)
        }
    }

    @Test func freedSlotsAreReusedBeforeTheArraysGrow() {
        var list = RecencyList()
        let slots = (0..<5).map { _ in list.append() }
        list.remove(slots[1])
        list.remove(slots[3])
        let reused = [list.append(), list.append()]
        #expect(Set(reused) == [slots[1], slots[3]])
        #expect(list.append() == 5)
    }
}
