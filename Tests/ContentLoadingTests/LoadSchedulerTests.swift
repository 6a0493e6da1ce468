import ContentLoading
import SeededRandom
import Testing

@Suite struct LoadSchedulerTests {
    @Test func startsNewestFirstWithinATierByDefault() {
        var scheduler = LoadScheduler<String>(maxConcurrent: 1)
        for id in ["a", "b", "c"] { scheduler.enqueue(id, priority: .visible) }
        let started1 = scheduler.startNext()
        #expect(started1 == ["c"])
        scheduler.finish("c")
        let started2 = scheduler.startNext()
        #expect(started2 == ["b"])
    }

    @Test func startsOldestFirstWhenAskedTo() {
        var scheduler = LoadScheduler<String>(maxConcurrent: 2, order: .fifo)
        for id in ["a", "b", "c"] { scheduler.enqueue(id, priority: .visible) }
        let started3 = scheduler.startNext()
        #expect(started3 == ["a", "b"])
    }

    @Test func higherTiersStartFirstWhateverTheirAge() {
        var scheduler = LoadScheduler<String>(maxConcurrent: 4)
        scheduler.enqueue("visible-old", priority: .visible)
        scheduler.enqueue("prefetch", priority: .prefetch)
        scheduler.enqueue("background", priority: .background)
        scheduler.enqueue("display", priority: .display)
        scheduler.enqueue("visible-new", priority: .visible)
        let started4 = scheduler.startNext()
        #expect(started4 == ["visible-new", "visible-old", "display", "prefetch"])
        #expect(scheduler.waitingCount == 1)
    }

    @Test func aRaisedPriorityMovesAJobToTheFrontOfItsNewTier() {
        var scheduler = LoadScheduler<String>(maxConcurrent: 1)
        scheduler.enqueue("a", priority: .prefetch)
        scheduler.enqueue("b", priority: .visible)
        scheduler.enqueue("c", priority: .visible)
        scheduler.setPriority(.visible, of: "a")
        let started5 = scheduler.startNext()
        #expect(started5 == ["a"])
        scheduler.setPriority(.background, of: "c")
        scheduler.finish("a")
        let started6 = scheduler.startNext()
        #expect(started6 == ["b"])
        #expect(scheduler.priority(of: "c") == .background)
    }

    @Test func neverRunsMoreThanTheLimit() {
        var scheduler = LoadScheduler<Int>(maxConcurrent: 3)
        for id in 0..<10 { scheduler.enqueue(id, priority: .visible) }
        let started7 = scheduler.startNext()
        #expect(started7.count == 3)
        let started8 = scheduler.startNext()
        #expect(started8.isEmpty)
        scheduler.finish(9)
        let started9 = scheduler.startNext()
        #expect(started9 == [6])
        #expect(scheduler.running.count == 3)
    }

    @Test func aRemovedJobNeverStarts() {
        var scheduler = LoadScheduler<String>(maxConcurrent: 1)
        scheduler.enqueue("a", priority: .visible)
        scheduler.enqueue("b", priority: .visible)
        let removedWaiting = scheduler.remove("b")
        #expect(removedWaiting)
        let started10 = scheduler.startNext()
        #expect(started10 == ["a"])
        scheduler.finish("a")
        let started11 = scheduler.startNext()
        #expect(started11.isEmpty)
        let removedAgain = scheduler.remove("b")
        #expect(!removedAgain)
    }

    @Test func aJobMovedToTheFrontStartsNextInItsTier() {
        var lifo = LoadScheduler<String>(maxConcurrent: 1)
        var fifo = LoadScheduler<String>(maxConcurrent: 1, order: .fifo)
        for id in ["a", "b", "c"] {
            lifo.enqueue(id, priority: .visible)
            fifo.enqueue(id, priority: .visible)
        }
        lifo.moveToFront("a")
        fifo.moveToFront("c")
        let lifoStarted = lifo.startNext()
        let fifoStarted = fifo.startNext()
        #expect(lifoStarted == ["a"])
        #expect(fifoStarted == ["c"])
    }

    /// Random operations against a model that keeps every waiting job in a plain array.
    @Test func matchesASimpleModelUnderRandomOperations() {
        let seed = randomizedTestSeed()
        print("LoadScheduler model test: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for order in [QueueOrder.lifo, .fifo] {
            var scheduler = LoadScheduler<Int>(maxConcurrent: 3, order: order)
            var modelWaiting: [(id: Int, priority: LoadPriority, stamp: Int)] = []
            var modelRunning: Set<Int> = []
            var stamp = 0
            // Stamps for jobs moved to the front in FIFO order: older than any other.
            var frontStamp = 0
            var nextID = 0
            for step in 0..<20_000 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    let priority = LoadPriority.allCases.randomElement(using: &random)!
                    scheduler.enqueue(nextID, priority: priority)
                    stamp += 1
                    modelWaiting.append((nextID, priority, stamp))
                    nextID += 1
                case 2 where !modelWaiting.isEmpty:
                    let index = Int.random(in: modelWaiting.indices, using: &random)
                    let priority = LoadPriority.allCases.randomElement(using: &random)!
                    scheduler.setPriority(priority, of: modelWaiting[index].id)
                    if modelWaiting[index].priority != priority {
                        stamp += 1
                        modelWaiting[index].priority = priority
                        modelWaiting[index].stamp = stamp
                    }
                case 3 where !modelWaiting.isEmpty:
                    let index = Int.random(in: modelWaiting.indices, using: &random)
                    let removed = scheduler.remove(modelWaiting.remove(at: index).id)
                    #expect(removed)
                case 5 where !modelWaiting.isEmpty:
                    let index = Int.random(in: modelWaiting.indices, using: &random)
                    scheduler.moveToFront(modelWaiting[index].id)
                    if order == .lifo {
                        stamp += 1
                        modelWaiting[index].stamp = stamp
                    } else {
                        frontStamp -= 1
                        modelWaiting[index].stamp = frontStamp
                    }
                case 4 where !modelRunning.isEmpty:
                    let id = modelRunning.randomElement(using: &random)!
                    modelRunning.remove(id)
                    scheduler.finish(id)
                default:
                    break
                }
                var expected: [Int] = []
                while modelRunning.count + expected.count < 3, !modelWaiting.isEmpty {
                    let best = modelWaiting.indices.max { a, b in
                        let (x, y) = (modelWaiting[a], modelWaiting[b])
                        if x.priority != y.priority { return x.priority < y.priority }
                        return order == .lifo ? x.stamp < y.stamp : x.stamp > y.stamp
                    }!
                    expected.append(modelWaiting.remove(at: best).id)
                }
                let started = scheduler.startNext()
                modelRunning.formUnion(expected)
                if started != expected {
                    Issue.record("seed \(seed), \(order), step \(step): started \(started), model \(expected)")
                    return
                }
            }
        }
    }
}
