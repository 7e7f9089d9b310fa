import Benchmark
import Designs
import Multicast

// Every broadcast benchmark makes `repeats(n)` broadcasts to `n` observers per
// iteration, so each iteration does about 10,000 observer calls whatever `n`.
// Scripts/benchmark.sh divides by both to report nanoseconds per observer.
let sizes = [1, 10, 100, 1_000, 10_000]

func repeats(_ observers: Int) -> Int { max(1, 10_000 / observers) }

let benchmarks: @Sendable () -> Void = {
  let broadcastConfiguration = Benchmark.Configuration(
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    warmupIterations: 10,
    maxDuration: .seconds(1),
    maxIterations: 2_000
  )

  for n in sizes {
    let rounds = repeats(n)
    let suffix = "n=\(n) x\(rounds)"

    Benchmark("broadcast multicast \(suffix)", configuration: broadcastConfiguration) { benchmark in
      let observers = makeObservers(n)
      let delegate = MulticastDelegate<any TickObserver>()
      for observer in observers { delegate.addObserver(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { delegate { $0.tick(round) } }
      benchmark.stopMeasurement()
      blackHole(observers)
    }

    Benchmark("broadcast floor \(suffix)", configuration: broadcastConfiguration) { benchmark in
      let observers = makeObservers(n)
      let design = FloorDesign()
      for observer in observers { design.add(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { design.broadcast(round) }
      benchmark.stopMeasurement()
      blackHole(observers)
    }

    Benchmark("broadcast dictionary \(suffix)", configuration: broadcastConfiguration) {
      benchmark in
      let observers = makeObservers(n)
      let design = DictionaryDesign()
      for observer in observers { design.add(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { design.broadcast(round) }
      benchmark.stopMeasurement()
      blackHole(observers)
    }

    Benchmark("broadcast lock+copy \(suffix)", configuration: broadcastConfiguration) { benchmark in
      let observers = makeObservers(n)
      let design = LockAndCopyDesign<any TickObserver>()
      for observer in observers { design.add(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { design.broadcast { $0.tick(round) } }
      benchmark.stopMeasurement()
      blackHole(observers)
    }

    Benchmark("broadcast opencombine \(suffix)", configuration: broadcastConfiguration) {
      benchmark in
      let observers = makeObservers(n)
      let design = CombineDesign()
      for observer in observers { design.add(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { design.broadcast(round) }
      benchmark.stopMeasurement()
      blackHole(observers)
    }

    Benchmark("broadcast notificationcenter \(suffix)", configuration: broadcastConfiguration) {
      benchmark in
      let observers = makeObservers(n)
      let design = NotificationCenterDesign()
      for observer in observers { design.add(observer) }
      benchmark.startMeasurement()
      for round in 0..<rounds { design.broadcast(round) }
      benchmark.stopMeasurement()
      blackHole(observers)
    }
  }

  // Adding then removing n observers: 2n operations per iteration. Flat cost
  // per operation from n = 100 to n = 100,000 means O(1) operations.
  for n in [100, 100_000] {
    Benchmark(
      "add+remove multicast n=\(n) x\(2 * n)",
      configuration: .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 2,
        maxDuration: .seconds(2), maxIterations: n == 100 ? 5_000 : 20)
    ) { benchmark in
      let observers = makeObservers(n)
      let delegate = MulticastDelegate<any TickObserver>()
      benchmark.startMeasurement()
      for observer in observers { delegate.addObserver(observer) }
      for observer in observers { delegate.removeObserver(observer) }
      benchmark.stopMeasurement()
      blackHole(observers)
    }
  }
}
