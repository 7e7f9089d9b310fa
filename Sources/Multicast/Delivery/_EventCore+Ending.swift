// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Whether anything can still send to an event core, and what runs once nothing can
/// (README.md, section 4), guarded by the core's storage lock.
struct _Ending {
  /// Where the core is in its life as a thing that can be sent to.
  enum Phase {
    /// Something can send to it.
    case open
    /// Nothing can; its end waits behind the values sent before.
    case closing
    /// Its followers have run: a new follower ends at once.
    case ended
  }

  var phase = Phase.open
  /// What runs when the core ends, by the stream it is for.
  var followers: [ObjectIdentifier: @Sendable () -> Void] = [:]

  /// The cores a stream follows, forgotten when it ends first: released or cancelled.
  struct Following: Sendable {
    /// The stream's identity, by which each core knows its follower.
    let key: ObjectIdentifier
    /// The core the stream reads, then each core up its chain, held weakly:
    /// a stream does not keep its event.
    var cores: [_WeakReference] = []

    init(key: ObjectIdentifier) { self.key = key }

    /// Forgets the stream's followers.
    func unfollow() {
      for core in cores { (core.object as? any _Closable)?.unfollow(key) }
    }
  }
}

/// An event core, whatever its value, as a stream follows it to learn of its end.
protocol _Closable: AnyObject, Sendable {
  /// The link to the event this one derives from, if it is derived.
  var upstream: _UpstreamLink? { get }
  /// Nothing can send to the core again.
  func close()
  /// Runs `follower` when the core ends; `false`, running nothing, if it has ended.
  func follow(_ key: ObjectIdentifier, with follower: @escaping @Sendable () -> Void) -> Bool
  /// Forgets the follower for `key`.
  func unfollow(_ key: ObjectIdentifier)
}

extension _EventCore: _Closable {
  /// Nothing can send to the core again: its followers run after what was sent before;
  /// closing again does nothing.
  func close() {
    let destination = withLatest { state, _ -> _Destination? in
      guard ending.phase == .open else { return nil }
      guard !ending.followers.isEmpty else {
        ending.phase = .ended
        return nil
      }
      ending.phase = .closing
      return state.ownDestination
    }
    // Behind the values still on their way to the streams, in their queue.
    destination?.send(_DeliveryJob(_Checkpoint { self.end() }, .wait), from: nil)
  }

  /// Ends the core, in its queue of no actor, and runs its followers.
  private func end() {
    let followers = withLatest { _, _ in
      ending.phase = .ended
      defer { ending.followers = [:] }
      return ending.followers
    }
    for follower in followers.values { follower() }
  }

  func follow(_ key: ObjectIdentifier, with follower: @escaping @Sendable () -> Void) -> Bool {
    withLatest { _, _ in
      guard ending.phase != .ended else { return false }
      ending.followers[key] = follower
      return true
    }
  }

  func unfollow(_ key: ObjectIdentifier) {
    // Released here, after unlocking.
    _ = withLatest { _, _ in ending.followers.removeValue(forKey: key) }
  }

  /// Runs `finish` once nothing can send to the core again, after what was sent before
  /// reached its subscriptions of no actor (for a derived core, once the event it derives
  /// from ends), or at once, in that order, if so already; returns what to forget if the
  /// stream ends first.
  func followStream(
    _ key: ObjectIdentifier, finish: @escaping @Sendable () -> Void
  ) -> _Ending.Following {
    var following = _Ending.Following(key: key)
    guard follow(key, with: finish) else {
      // Behind a replayed first value, if there is one.
      let destination = withLatest { state, _ in state.ownDestination }
      destination.send(_DeliveryJob(_Checkpoint(finish), .wait), from: nil)
      return following
    }
    following.cores.append(_WeakReference(self))
    // Each derived core closes when the one it derives from ends.
    var derived: any _Closable = self
    while let link = derived.upstream {
      guard let upstream = link.upstreamCore as? any _Closable,
        upstream.follow(key, with: { [weak derived] in derived?.close() })
      else {
        derived.close()  // its upstream is gone or ended
        break
      }
      following.cores.append(_WeakReference(upstream))
      derived = upstream
    }
    return following
  }
}
