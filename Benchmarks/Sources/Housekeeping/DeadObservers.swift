// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Designs
import Multicast

// One live observer, and 10,000 that died without being removed, as the
// cells of a table that each observed a model do: what a broadcast costs the
// living, against the live observer alone.

let deadObservers = 10_000

/// A subject as an app holds it: a property of one of its objects.
final class Model {
  let observers = MulticastDelegate<any TickObserver>()
  let changes = EventSender<Int>()
}

/// One broadcast, made as an app makes it.
@inline(never)
func broadcast(_ model: Model, _ value: Int) {
  model.observers { $0.tick(value) }
}

/// One send, made where no actor is.
@inline(never)
func send(_ sender: EventSender<Int>, _ value: Int) {
  sender.send(value)
}

/// A model whose live observer registered first, and `dead` more that then
/// died, by each face: the delegate's observers and the event's target
/// subscriptions.
func makeModel(live: any TickObserver, dead: Int) -> Model {
  let model = Model()
  model.observers.addObserver(live)
  model.changes.event.observe(live) { $0.tick($1) }
  let dying = makeObservers(dead)
  for observer in dying {
    model.observers.addObserver(observer)
    model.changes.event.observe(observer) { $0.tick($1) }
  }
  return model
}

func runDeadObservers() {
  let live = Counter()
  let alone = makeModel(live: live, dead: 0)
  let haunted = makeModel(live: live, dead: deadObservers)
  var rows = [["1 live observer", "alone", "with dead", "ratio", "warm-up, with dead"]]
  let faces: [(String, (Model, Int) -> Void)] = [
    ("MulticastDelegate broadcast", broadcast),
    ("Event send, target subscriptions", { send($0.changes, $1) }),
  ]
  for (face, operation) in faces {
    // The first broadcast is the warm-up, where sweeping the dead may start.
    let first = time { operation(haunted, 0) }
    operation(alone, 0)
    let aloneTakes = nanosecondsPerCall { operation(alone, $0) }
    let hauntedTakes = nanosecondsPerCall { operation(haunted, $0) }
    rows.append([
      face, readable(nanoseconds: aloneTakes), readable(nanoseconds: hauntedTakes),
      String(format: "%.1f×", hauntedTakes / aloneTakes), readable(first),
    ])
  }
  print("A broadcast to 1 live observer, alone and with \(deadObservers) dead unremoved")
  print("(medians of 5 timed batches, after one warm-up broadcast)")
  printTable(rows)
  withExtendedLifetime(live) {}
}
