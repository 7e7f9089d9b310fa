import Benchmark
import Designs
import Multicast

// Every broadcast benchmark makes `repeats(n)` broadcasts to `n` observers per
// iteration, so each iteration does about 10,000 observer calls whatever `n`.
// Scripts/benchmark.sh divides by both to report nanoseconds per observer.
let sizes = [1, 10, 100, 1_000, 10_000]

func repeats(_ observers: Int) -> Int { max(1, 10_000 / observers) }

/// Registers a benchmark of one design broadcasting to `n` observers.
///
/// The observers and the design are set up once, when the benchmark is
/// registered, so that iterations measure broadcasts in a steady state: no
/// registration, no cold objects. `setUp` receives the observers and returns
/// the broadcast to measure.
func broadcastBenchmark(
  _ design: String, observers n: Int, configuration: Benchmark.Configuration,
  setUp: ([any TickObserver]) -> (Int) -> Void
) {
  let rounds = repeats(n)
  let observers = makeObservers(n)
  let broadcast = setUp(observers)
  Benchmark("broadcast \(design) n=\(n) x\(rounds)", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      for round in 0..<rounds { broadcast(round) }
    }
    blackHole(observers)
  }
}

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    warmupIterations: 10,
    maxDuration: .seconds(1),
    maxIterations: 2_000
  )

  for n in sizes {
    broadcastBenchmark("multicast", observers: n, configuration: configuration) { observers in
      let delegate = MulticastDelegate<any TickObserver>()
      for observer in observers { delegate.addObserver(observer) }
      return { value in delegate { $0.tick(value) } }
    }
    broadcastBenchmark("floor", observers: n, configuration: configuration) { observers in
      let design = FloorDesign()
      for observer in observers { design.add(observer) }
      return { value in design.broadcast(value) }
    }
    broadcastBenchmark("dictionary", observers: n, configuration: configuration) { observers in
      let design = DictionaryDesign()
      for observer in observers { design.add(observer) }
      return { value in design.broadcast(value) }
    }
    broadcastBenchmark("lock+copy", observers: n, configuration: configuration) { observers in
      let design = LockAndCopyDesign()
      for observer in observers { design.add(observer) }
      return { value in design.broadcast { $0.tick(value) } }
    }
    broadcastBenchmark("opencombine", observers: n, configuration: configuration) { observers in
      let design = CombineDesign()
      for observer in observers { design.add(observer) }
      return { value in design.broadcast(value) }
    }
    broadcastBenchmark("notificationcenter", observers: n, configuration: configuration) {
      observers in
      let design = NotificationCenterDesign()
      for observer in observers { design.add(observer) }
      return { value in design.broadcast(value) }
    }
  }

  // Adding then removing n observers: 2n operations per iteration. Flat cost
  // per operation from n = 100 to n = 100,000 means O(1) operations.
  for n in [100, 100_000] {
    let observers = makeObservers(n)
    Benchmark(
      "add+remove multicast n=\(n) x\(2 * n)",
      configuration: .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 2,
        maxDuration: .seconds(2), maxIterations: n == 100 ? 5_000 : 20)
    ) { _ in
      let delegate = MulticastDelegate<any TickObserver>()
      for observer in observers { delegate.addObserver(observer) }
      for observer in observers { delegate.removeObserver(observer) }
      blackHole(delegate)
    }
  }
}
