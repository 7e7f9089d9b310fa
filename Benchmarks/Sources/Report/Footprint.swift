// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import CHeapStatistics
import Designs
import Multicast

/// Heap bytes per registered observer for each design, at `count` observers.
///
/// Every observer is weakly referenced before any design is measured, so the
/// side tables the runtime allocates for weakly referenced objects, which
/// every weak design pays for, are not counted against any of them.
func footprints(observers count: Int) -> [(design: String, bytes: Double)]? {
  guard heap_bytes_in_use() >= 0 else { return nil }
  let observers = makeObservers(count)
  let sideTables = FloorDesign()
  for observer in observers { sideTables.add(observer) }

  func measure(_ name: String, _ register: () -> AnyObject) -> (String, Double) {
    let before = heap_bytes_in_use()
    let design = register()
    let bytes = heap_bytes_in_use() - before
    withExtendedLifetime(design) {}
    return (name, Double(bytes) / Double(count))
  }

  return [
    measure("multicast") {
      let delegate = MulticastDelegate<any TickObserver>()
      for observer in observers { delegate.addObserver(observer) }
      return delegate
    },
    measure("floor") {
      let design = FloorDesign()
      for observer in observers { design.add(observer) }
      return design
    },
    measure("dictionary") {
      let design = DictionaryDesign()
      for observer in observers { design.add(observer) }
      return design
    },
    measure("lock+copy") {
      let design = LockAndCopyDesign()
      for observer in observers { design.add(observer) }
      return design
    },
  ]
}
