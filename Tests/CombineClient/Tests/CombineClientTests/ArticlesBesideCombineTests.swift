// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The articles' code that stores subscriptions, copied as it is, in a file
// that imports Combine's names too (OpenCombine's, here), as a SwiftUI view
// file does.

import Multicast
import Observation
import OpenCombine
import Testing

// MARK: Concurrency: events and observable values across actors

actor Upload {
  private let sentSender = EventSender<Int>()
  nonisolated var bytesSent: Event<Int> { sentSender.event }
  nonisolated let fraction = ObservableValue(0.0)
  let total: Int

  init(total: Int) {
    self.total = total
  }

  func sent(_ bytes: Int) {
    sentSender.send(bytes)
    fraction.set(Double(bytes) / Double(total))
  }
}

@MainActor
final class UploadViewModel {
  private(set) var status = ""
  private(set) var progress = 0.0
  private var subscriptions: Set<EventSubscription> = []

  init(upload: Upload) {
    upload.bytesSent.observe(self) { model, bytes in
      model.status = "\(bytes) bytes sent"
    }.store(in: &subscriptions)
    upload.fraction.observe(self) { model, _, new in model.progress = new }
      .store(in: &subscriptions)
  }
}

// MARK: SwiftUI and Observation: a view model that subscribes to an event

@available(macOS 14, iOS 17, *)
@MainActor
@Observable
final class StatusModel {
  private(set) var lines: [String] = []
  @ObservationIgnored private var subscription: EventSubscription?

  init(status: Event<String>) {
    subscription = status.observe { [weak self] line in
      self?.lines.append(line)
    }
  }
}

@Suite("The articles' code, in a file that also imports Combine's names")
@MainActor
struct ArticlesBesideCombineTests {
  @Test("An upload actor's event and value reach a main-actor view model's stored subscriptions")
  func uploadViewModel() async {
    let upload = Upload(total: 200)
    let model = UploadViewModel(upload: upload)
    await upload.sent(100)
    await upload.sent(200)
    await waitForDeliveries()
    #expect(model.status == "200 bytes sent")
    #expect(model.progress == 1)
  }

  @available(macOS 14, iOS 17, *)
  @Test("An @Observable model keeps its subscription to an event")
  func statusModel() {
    let status = EventSender<String>()
    let model = StatusModel(status: status.event)
    status.send("connected")
    #expect(model.lines == ["connected"])
  }

  @Test("Migrating: a Combine subject's cancellables and an event's subscriptions in one function")
  func migrating() {
    var heard: [Int] = []
    let subject = CurrentValueSubject<Int, Never>(0)
    var cancellables: Set<AnyCancellable> = []
    subject.dropFirst().sink { heard.append($0) }.store(in: &cancellables)

    let scores = EventSender<Int>()
    var subscriptions: Set<EventSubscription> = []
    scores.event.map { $0 * 10 }.observe { subject.send($0) }.store(in: &subscriptions)
    scores.send(3)
    subscriptions.removeAll()
    scores.send(4)  // nothing: the subscriptions ended with the set

    #expect(heard == [30])
  }
}
