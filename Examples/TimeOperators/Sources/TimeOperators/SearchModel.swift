// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AsyncAlgorithms
public import Multicast

/// A search field's model: it searches once typing pauses, not at every key.
///
/// The field's text is an ``Event``; its `values` stream, debounced, drives
/// one task, which the model cancels when it goes:
///
/// ```swift
/// let model = SearchModel(query: field.text, pause: .milliseconds(300)) { query in
///   catalog.titles(matching: query)
/// }
/// ```
@MainActor
public final class SearchModel {
  /// The results of the last search.
  public private(set) var results: [String] = []
  /// The queries searched, in order.
  public private(set) var searched: [String] = []
  private var searching: Task<Void, Never>?

  /// Searches `query`'s text each time it has not changed for `pause`.
  ///
  /// - Parameters:
  ///   - query: The field's text, as it is typed.
  ///   - pause: How long the text must stay the same before a search.
  ///   - clock: The clock that measures the pause.
  ///   - search: Finds the results of a query.
  public convenience init<C: Clock>(
    query: Event<String>, pause: C.Duration, clock: C,
    search: @escaping @Sendable (String) -> [String]
  ) {
    // The stream subscribes here, before the task runs: no text is missed.
    self.init(queries: query.values, pause: pause, clock: clock, search: search)
  }

  /// Searches `query`'s text, measuring the pause on the continuous clock.
  ///
  /// - Parameters:
  ///   - query: The field's text, as it is typed.
  ///   - pause: How long the text must stay the same before a search.
  ///   - search: Finds the results of a query.
  public convenience init(
    query: Event<String>, pause: Duration, search: @escaping @Sendable (String) -> [String]
  ) {
    self.init(query: query, pause: pause, clock: ContinuousClock(), search: search)
  }

  /// Searches each query of `queries` that is followed by a pause.
  ///
  /// - Parameters:
  ///   - queries: The queries, as they are typed.
  ///   - pause: How long a query must stay the last before a search.
  ///   - clock: The clock that measures the pause.
  ///   - search: Finds the results of a query.
  public init<Queries: AsyncSequence & Sendable, C: Clock>(
    queries: Queries, pause: C.Duration, clock: C,
    search: @escaping @Sendable (String) -> [String]
  ) where Queries.Element == String {
    searching = Task { [weak self] in
      do {
        for try await query in queries.debounce(for: pause, clock: clock) {
          guard let self else { return }
          searched.append(query)
          results = search(query)
        }
      } catch {
        // The text ended with an error: no more searches.
      }
    }
  }

  /// Stops searching, and returns once the search task has ended (its
  /// subscription to the text with it).
  public func stop() async {
    searching?.cancel()
    await searching?.value
  }

  deinit {
    searching?.cancel()
  }
}
