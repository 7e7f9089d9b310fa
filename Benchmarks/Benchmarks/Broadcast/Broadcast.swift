// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Benchmark
import Designs
import Dispatch
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

  // The faces at 1,000 subscribers, beside the designs they replace: an event
  // in target form against a protocol broadcast (same work: a weak load and a
  // call), closure subscriptions against OpenCombine sinks, and an observable
  // value against CurrentValueSubject.
  let faces = 1_000
  broadcastBenchmark("event-target", observers: faces, configuration: configuration) {
    observers in
    let sender = EventSender<Int>()
    for observer in observers { sender.event.observe(observer) { $0.tick($1) } }
    return { value in sender.send(value) }
  }
  broadcastBenchmark("event-closure", observers: faces, configuration: configuration) {
    observers in
    let sender = EventSender<Int>()
    var subscriptions: [EventSubscription] = []
    for observer in observers {
      subscriptions.append(sender.event.observe { [weak observer] in observer?.tick($0) })
    }
    return { value in withExtendedLifetime(subscriptions) { sender.send(value) } }
  }
  broadcastBenchmark("observable-value", observers: faces, configuration: configuration) {
    observers in
    let volume = ObservableValue(0)
    for observer in observers {
      volume.observe(observer) { observer, _, new in observer.tick(new) }
    }
    return { value in volume.value = value }
  }
  broadcastBenchmark("currentvaluesubject", observers: faces, configuration: configuration) {
    observers in
    let design = CombineValueDesign()
    for observer in observers { design.add(observer) }
    return { value in design.assign(value) }
  }

  // Adding then removing n observers to a new subject: 2n operations, repeated
  // to make about 10,000 per iteration. Flat cost per operation from n = 100
  // to n = 100,000 means O(1) operations.
  for n in [1, 10, 100, 100_000] {
    let rounds = max(1, 5_000 / n)
    let observers = makeObservers(n)
    let churn = Benchmark.Configuration(
      metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 2,
      maxDuration: .seconds(1), maxIterations: n == 100_000 ? 20 : 2_000)
    Benchmark("add+remove multicast n=\(n) x\(2 * n * rounds)", configuration: churn) { _ in
      for _ in 0..<rounds {
        let delegate = MulticastDelegate<any TickObserver>()
        for observer in observers { delegate.addObserver(observer) }
        for observer in observers { delegate.removeObserver(observer) }
        blackHole(delegate)
      }
    }
    Benchmark("add+remove dictionary n=\(n) x\(2 * n * rounds)", configuration: churn) { _ in
      for _ in 0..<rounds {
        let design = DictionaryDesign()
        for observer in observers { design.add(observer) }
        for observer in observers { design.remove(observer) }
        blackHole(design)
      }
    }
  }

  // Subscribing then cancelling 100 closure subscribers.
  do {
    let n = 100
    let rounds = 50
    let observers = makeObservers(n)
    let churn = Benchmark.Configuration(
      metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 2,
      maxDuration: .seconds(1), maxIterations: 2_000)
    Benchmark("subscribe+cancel event n=\(n) x\(2 * n * rounds)", configuration: churn) { _ in
      for _ in 0..<rounds {
        let sender = EventSender<Int>()
        var subscriptions: [EventSubscription] = []
        subscriptions.reserveCapacity(n)
        for observer in observers {
          subscriptions.append(sender.event.observe { [weak observer] in observer?.tick($0) })
        }
        for subscription in subscriptions { subscription.cancel() }
        blackHole(sender)
      }
    }
    Benchmark("subscribe+cancel opencombine n=\(n) x\(2 * n * rounds)", configuration: churn) {
      _ in
      for _ in 0..<rounds {
        let design = CombineDesign()
        design.subscribeThenCancel(observers)
        blackHole(design)
      }
    }
  }

  // One and two threads broadcasting through one subject to 10 observers:
  // each thread makes the same number of broadcasts, so perfect scaling
  // takes as long with two threads as with one.
  let listeners: [any SharedTickObserver] = (0..<10).map { _ in Listener() }
  let shared = MulticastDelegate<any SharedTickObserver>()
  let sharedPeer = SharedLockAndCopyDesign()
  let sharedFloor = SharedFloorDesign(listeners)
  for listener in listeners {
    shared.addObserver(listener)
    sharedPeer.add(listener)
  }
  // With no observer at all, a broadcast is the storage's own work: what two
  // threads broadcasting at once share there, with no reference count. (Fifty
  // times the rounds, so that starting the threads does not dominate.)
  let unobserved = MulticastDelegate<any SharedTickObserver>()
  let threadRounds = 20_000
  let unobservedRounds = 50 * threadRounds
  for threads in [1, 2] {
    Benchmark(
      "threads multicast-unobserved t=\(threads) n=10 x\(unobservedRounds)",
      configuration: configuration
    ) { _ in
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for round in 0..<unobservedRounds { unobserved { $0.tick(round) } }
      }
    }
    Benchmark("threads multicast t=\(threads) n=10 x\(threadRounds)", configuration: configuration)
    {
      _ in
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for round in 0..<threadRounds { shared { $0.tick(round) } }
      }
    }
    Benchmark("threads floor t=\(threads) n=10 x\(threadRounds)", configuration: configuration) {
      _ in
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for round in 0..<threadRounds { sharedFloor.broadcast(round) }
      }
    }
    Benchmark("threads lock+copy t=\(threads) n=10 x\(threadRounds)", configuration: configuration)
    {
      _ in
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for round in 0..<threadRounds { sharedPeer.broadcast(round) }
      }
    }
  }
  blackHole(listeners)

  // A background task broadcasting to 10 main-actor observers: the library's
  // queue (a protocol broadcast and an event), a hand-written queue of
  // closures (the floor of any hop), a task per event, and an AsyncStream
  // pump; and the same broadcasts made on the main actor. Each iteration sends
  // `events` events, counted cumulatively by the observers.
  let events = 20_000
  let delivery = Benchmark.Configuration(
    metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 1,
    maxDuration: .seconds(2), maxIterations: 50)
  let ways: [(name: String, send: @Sendable (MainActorAudience, Range<Int>) async -> Void)] = [
    ("on-main", { await $0.broadcastOnMainActor($1) }),
    ("multicast", { await $0.sendThroughMulticast($1) }),
    ("hand-written-hop", { await $0.sendThroughHandWrittenHop($1) }),
    ("event", { await $0.sendThroughEvent($1) }),
    ("task-per-event", { await $0.sendThroughTasks($1) }),
  ]
  for way in ways {
    Benchmark("deliver \(way.name) n=10 x\(events)", configuration: delivery) { benchmark in
      let audience = await MainActorAudience(count: 10)
      var sent = 0
      for _ in benchmark.scaledIterations {
        await way.send(audience, sent..<sent + events)
        sent += events
      }
    }
  }
  Benchmark("deliver asyncstream n=10 x\(events)", configuration: delivery) { benchmark in
    let audience = await MainActorAudience(count: 10)
    for _ in benchmark.scaledIterations {
      await audience.sendThroughStream(0..<events)
    }
  }
}
