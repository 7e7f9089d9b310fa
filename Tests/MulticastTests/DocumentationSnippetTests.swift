// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The code of the articles in Sources/Multicast/Multicast.docc, line for line.
// Scripts/build-docs.sh fails if a Swift block of an article is not found
// here, so the articles' code keeps compiling; each test checks the output
// the article shows in its comments.

import Foundation
import Multicast
import Testing

/// What the snippets print, per test.
final class Transcript: Sendable {
  @TaskLocal static var current: Transcript?
  let lines = Locked<[String]>([])
}

/// Records into the test's transcript instead of writing to standard output.
///
/// Its signature is the standard library's, so that it shadows `print` in
/// this file everywhere rather than competing with it as an overload.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  let line = items.map { "\($0)" }.joined(separator: separator)
  Transcript.current?.lines.withLock { $0.append(line) }
}

/// Runs `snippet` and returns what it printed.
private func printed(_ snippet: () throws -> Void) rethrows -> [String] {
  let transcript = Transcript()
  try Transcript.$current.withValue(transcript) { try snippet() }
  return transcript.lines.withLock { $0 }
}

private func printed(
  isolation: isolated (any Actor)? = #isolation, _ snippet: () async throws -> Void
) async rethrows -> [String] {
  let transcript = Transcript()
  try await Transcript.$current.withValue(transcript) { try await snippet() }
  return transcript.lines.withLock { $0 }
}

// MARK: Getting started

protocol AudioPlayerObserver: AnyObject {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying title: String)
  func audioPlayerDidStop(_ player: AudioPlayer)
}

extension AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying title: String) {}
  func audioPlayerDidStop(_ player: AudioPlayer) {}
}

final class AudioPlayer {
  private let observers = MulticastDelegate<any AudioPlayerObserver>()

  func addObserver(_ observer: any AudioPlayerObserver) {
    observers.addObserver(observer)
  }

  func removeObserver(_ observer: any AudioPlayerObserver) {
    observers.removeObserver(observer)
  }

  func play(_ title: String) {
    observers { $0.audioPlayer(self, didStartPlaying: title) }
  }

  func stop() {
    observers { $0.audioPlayerDidStop(self) }
  }
}

final class NowPlayingView: AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying title: String) {
    print("Now playing: \(title)")
  }
}

final class MiniPlayer: AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying title: String) {
    print("[▶ \(title)]")
  }

  func audioPlayerDidStop(_ player: AudioPlayer) {
    print("[■ stopped]")
  }
}

// MARK: Getting started: on the main actor

@MainActor
protocol PlaylistObserver: AnyObject {
  func playlist(_ playlist: Playlist, didAdd title: String)
}

@MainActor
final class Playlist {
  private let observers = MulticastDelegate<any PlaylistObserver>()
  private(set) var titles: [String] = []

  func addObserver(_ observer: any PlaylistObserver) {
    observers.addObserver(observer)
  }

  func add(_ title: String) {
    titles.append(title)
    observers { $0.playlist(self, didAdd: title) }
  }
}

@MainActor
final class PlaylistViewModel: PlaylistObserver {
  private(set) var count = 0

  init(playlist: Playlist) {
    playlist.addObserver(self)
  }

  func playlist(_ playlist: Playlist, didAdd title: String) {
    count = playlist.titles.count
  }
}

protocol DownloadObserver: AnyObject {
  func download(_ download: Download, didReceive bytes: Int)
}

@MainActor
final class Download {
  private let observers = MulticastDelegate<any DownloadObserver>()
  private(set) var received = 0

  func addObserver(_ observer: any DownloadObserver) {
    observers.addObserver(observer)
  }

  func receive(_ bytes: Int) {
    received += bytes
    observers { $0.download(self, didReceive: bytes) }
  }
}

@MainActor
final class ProgressLabel {
  private(set) var text = "0 bytes"

  init(download: Download) {
    download.addObserver(self)
  }
}

extension ProgressLabel: @MainActor DownloadObserver {
  func download(_ download: Download, didReceive bytes: Int) {
    text = "\(download.received) bytes"
  }
}

// MARK: Observers and Swift concurrency

@MainActor
protocol TransferObserver: AnyObject, Sendable {
  func transfer(_ transfer: Transfer, didProgress fraction: Double)
}

@MainActor
final class TransferViewModel: TransferObserver {
  private(set) var progress = 0.0

  init(transfer: Transfer) {
    transfer.addObserver(self)
  }

  func transfer(_ transfer: Transfer, didProgress fraction: Double) {
    progress = fraction
  }
}

actor Transfer {
  private let observers = MulticastDelegate<any TransferObserver>()

  nonisolated func addObserver(_ observer: any TransferObserver) {
    observers.addObserver(observer)
  }

  func received(_ fraction: Double) {
    observers.onMainActor { $0.transfer(self, didProgress: fraction) }
  }
}

@globalActor
actor Database {
  static let shared = Database()
}

@Database
protocol CatalogObserver: AnyObject, Sendable {
  func catalogDidAdd(_ item: String)
}

final class Catalog: Sendable {
  let observers = MulticastDelegate<any CatalogObserver>()

  func add(_ item: String) {
    observers.onActor { @Database in $0.catalogDidAdd(item) }
  }
}

@Database
final class SearchIndex: CatalogObserver {
  private(set) var items: [String] = []

  func catalogDidAdd(_ item: String) {
    items.append(item)
  }
}

protocol CacheObserver: AnyObject, Sendable {
  func cacheDidEvict(_ key: String) async
}

actor Thumbnails: CacheObserver {
  private(set) var evicted: [String] = []

  func cacheDidEvict(_ key: String) {
    evicted.append(key)
  }
}

func evict(_ key: String, from observers: MulticastDelegate<any CacheObserver>) async throws {
  try await observers.awaitEach { await $0.cacheDidEvict(key) }
}

@MainActor
protocol DocumentObserver: AnyObject {
  func documentWillClose(_ document: Document) async
}

@MainActor
final class Document {
  private let observers = MulticastDelegate<any DocumentObserver>()

  func addObserver(_ observer: any DocumentObserver) {
    observers.addObserver(observer)
  }

  func close() async throws {
    try await observers.awaitEach { await $0.documentWillClose(self) }
  }
}

@MainActor
final class ClosingPart: DocumentObserver {
  let name: String
  init(_ name: String) { self.name = name }
  func documentWillClose(_ document: Document) async {
    await Task.yield()
    print(name, "saved")
  }
}

/// Registered after the view model: once it has heard a broadcast, the
/// view model has too.
@MainActor
final class TransferProbe: TransferObserver {
  private(set) var heard: [Double] = []
  private let arrivals = Arrivals()

  func transfer(_ transfer: Transfer, didProgress fraction: Double) {
    MainActor.preconditionIsolated()
    heard.append(fraction)
    arrivals.arrive()
  }

  func waitUntilHeard(_ count: Int) async {
    await arrivals.wait(for: count)
  }
}

// MARK: The contract

protocol Greeting: AnyObject {
  func greet()
}

final class Greeter: Greeting {
  let name: String
  var onGreet: () -> Void = {}

  init(_ name: String) { self.name = name }

  func greet() {
    print(name)
    onGreet()
  }
}

final class Visitor: Greeting {
  let observers: MulticastDelegate<any Greeting>

  init(observers: MulticastDelegate<any Greeting>) {
    self.observers = observers
    observers.addObserver(self)
  }

  func greet() { print("Visitor") }

  deinit { observers.removeObserver(self) }
}

protocol Tallying: AnyObject, Sendable {
  func count()
}

final class Tally: Tallying {
  private let counted = Locked(0)
  var total: Int { counted.withLock { $0 } }
  func count() { counted.withLock { $0 += 1 } }
}

struct Refused: Error {}

// MARK: Migrating

final class Downloader {
  private let progress = EventSender<Double>()
  var progressChanged: Event<Double> { progress.event }

  func report(_ fraction: Double) {
    progress.send(fraction)
  }
}

protocol KeyboardObserver: AnyObject {
  func keyboardWillShow(height: Double)
  func keyboardWillHide()
}

extension KeyboardObserver {
  func keyboardWillShow(height: Double) {}
  func keyboardWillHide() {}
}

final class Keyboard {
  private let observers = MulticastDelegate<any KeyboardObserver>()

  func addObserver(_ observer: any KeyboardObserver) {
    observers.addObserver(observer)
  }

  func removeObserver(_ observer: any KeyboardObserver) {
    observers.removeObserver(observer)
  }

  func show(height: Double) {
    observers { $0.keyboardWillShow(height: height) }
  }
}

final class ChatScreen: KeyboardObserver {
  func keyboardWillShow(height: Double) {
    print("move the input bar up by", height)
  }
}

@Suite("Documentation snippets")
struct DocumentationSnippetTests {
  @Test("Getting started")
  func gettingStarted() {
    let output = printed {
      let player = AudioPlayer()
      let nowPlaying = NowPlayingView()
      let mini = MiniPlayer()
      player.addObserver(nowPlaying)
      player.addObserver(mini)

      player.play("So What")
      // Now playing: So What
      // [▶ So What]
      player.stop()
      // [■ stopped]

      player.removeObserver(mini)
      player.play("Blue in Green")
      // Now playing: Blue in Green
    }
    #expect(
      output == [
        "Now playing: So What", "[▶ So What]", "[■ stopped]", "Now playing: Blue in Green",
      ])
  }

  @Test("Getting started: a @MainActor protocol with a @MainActor subject")
  @MainActor
  func mainActorProtocol() {
    let output = printed {
      let playlist = Playlist()
      let model = PlaylistViewModel(playlist: playlist)
      playlist.add("So What")
      print(model.count)  // 1
    }
    #expect(output == ["1"])
  }

  @Test("Getting started: an isolated conformance with a @MainActor subject")
  @MainActor
  func isolatedConformance() {
    let output = printed {
      let download = Download()
      let label = ProgressLabel(download: download)
      download.receive(512)
      download.receive(512)
      print(label.text)  // 1024 bytes
    }
    #expect(output == ["1024 bytes"])
  }

  @Test("Observers and Swift concurrency: a subject on another actor")
  @MainActor
  func actorSubject() async {
    let transfer = Transfer()
    let model = TransferViewModel(transfer: transfer)
    let probe = TransferProbe()
    transfer.addObserver(probe)
    await transfer.received(0.5)
    await transfer.received(1)
    await probe.waitUntilHeard(2)
    // The model was called before the probe, on the main actor, in order.
    #expect(probe.heard == [0.5, 1])
    #expect(model.progress == 1)
  }

  @Test("Observers and Swift concurrency: observers on another global actor")
  func customGlobalActor() async {
    let catalog = Catalog()
    // Made on its actor: in Swift 5 mode its initializer is isolated there.
    let index = await Task { @Database in SearchIndex() }.value
    catalog.observers.addObserver(index)
    await Task.detached { for item in ["a", "b", "c"] { catalog.add(item) } }.value
    // Queued behind the three: once it has run, they have.
    await withCheckedContinuation { done in
      catalog.observers.onActor { @Database _ in done.resume() }
    }
    #expect(await index.items == ["a", "b", "c"])
  }

  @Test("Observers and Swift concurrency: observers that are actors")
  func actorObservers() async throws {
    let observers = MulticastDelegate<any CacheObserver>()
    let (small, large) = (Thumbnails(), Thumbnails())
    observers.addObserver(small)
    observers.addObserver(large)
    try await evict("cover.png", from: observers)
    #expect(await small.evicted == ["cover.png"])
    #expect(await large.evicted == ["cover.png"])
  }

  @Test("Observers and Swift concurrency: async observer methods")
  @MainActor
  func asyncObserverMethods() async throws {
    let output = try await printed {
      let document = Document()
      let parts = [ClosingPart("text"), ClosingPart("images")]
      for part in parts { document.addObserver(part) }
      try await document.close()
      withExtendedLifetime(parts) {}
    }
    #expect(output == ["text saved", "images saved"])
  }

  @Test("The contract: order")
  func order() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      let ann = Greeter("Ann")
      let bob = Greeter("Bob")
      observers.addObserver(ann)
      observers.addObserver(bob)
      observers.addObserver(ann)  // already registered: keeps its place
      observers { $0.greet() }
      // Ann
      // Bob
    }
    #expect(output == ["Ann", "Bob"])
  }

  @Test("The contract: lifetime")
  func lifetime() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      var guest: Greeter? = Greeter("Guest")
      observers.addObserver(guest!)
      print(observers.count)  // 1
      guest = nil  // gone without being removed
      print(observers.count)  // 0
      observers { $0.greet() }  // calls nobody
    }
    #expect(output == ["1", "0"])
  }

  @Test("The contract: removal from deinit")
  func removalFromDeinit() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      var visitor: Visitor? = Visitor(observers: observers)
      print(observers.contains(visitor!))  // true
      visitor = nil  // removes itself on the way out
      print(observers.count)  // 0
    }
    #expect(output == ["true", "0"])
  }

  @Test("The contract: identity")
  func identity() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      let first = Greeter("Sam")
      let second = Greeter("Sam")  // the same name, another object
      observers.addObserver(first)
      print(observers.contains(first))  // true
      print(observers.contains(second))  // false
    }
    #expect(output == ["true", "false"])
  }

  @Test("The contract: re-entrancy")
  func reentrancy() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      let ann = Greeter("Ann")
      let bob = Greeter("Bob")
      let cat = Greeter("Cat")
      ann.onGreet = {
        observers.removeObserver(bob)  // before Bob's turn: Bob is not called
        observers.addObserver(cat)  // during a broadcast: first called by the next
        ann.onGreet = {}
      }
      observers.addObserver(ann)
      observers.addObserver(bob)
      observers { $0.greet() }
      // Ann
      observers { $0.greet() }
      // Ann
      // Cat
    }
    #expect(output == ["Ann", "Ann", "Cat"])
  }

  @Test("The contract: threads")
  func threads() async {
    let output = await printed {
      let observers = MulticastDelegate<any Tallying>()  // Sendable, as Tallying is
      let tally = Tally()
      observers.addObserver(tally)
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<10 {
          group.addTask { observers { $0.count() } }
        }
      }
      print(tally.total)  // 10
    }
    #expect(output == ["10"])
  }

  @Test("The contract: errors")
  func errors() {
    let output = printed {
      let observers = MulticastDelegate<any Greeting>()
      let ann = Greeter("Ann")
      let bob = Greeter("Bob")
      observers.addObserver(ann)
      observers.addObserver(bob)
      do {
        try observers { observer in
          observer.greet()
          throw Refused()
        }
      } catch {
        print("stopped:", error)
      }
      // Ann
      // stopped: Refused()
    }
    #expect(output == ["Ann", "stopped: Refused()"])
  }

  @Test("Choosing a face: events")
  func events() {
    let output = printed {
      let tick = EventSender<Int>()
      let ticks: Event<Int> = tick.event  // what the owner exposes
      let subscription = ticks.observe { print("tick", $0) }
      tick.send(1)  // tick 1
      subscription.cancel()
      tick.send(2)  // nothing: the subscription ended
    }
    #expect(output == ["tick 1"])
  }

  @Test("Choosing a face: observable values")
  func observableValues() {
    let output = printed {
      let volume = ObservableValue(0.5)
      let subscription = volume.observe { old, new in print(old, "->", new) }
      volume.value = 0.7  // 0.5 -> 0.7
      subscription.cancel()
      volume.value = 0.9  // nothing: the subscription ended
    }
    #expect(output == ["0.5 -> 0.7"])
  }

  @Test("Choosing a face: a value's changes without duplicates")
  func removingDuplicates() {
    let output = printed {
      let isMuted = ObservableValue(false)
      let subscription = isMuted.observe(removingDuplicates: true) { old, new in
        print(old, "->", new)
      }
      isMuted.value = true  // false -> true
      isMuted.value = true  // nothing: the value did not change
      isMuted.value = false  // true -> false
      subscription.cancel()
    }
    #expect(output == ["false -> true", "true -> false"])
  }

  @Test("Choosing a face: a value made from values")
  func derivedValue() {
    let output = printed {
      let volume = ObservableValue(0.5)
      let isMuted = ObservableValue(false)
      let isAudible = volume.combined(with: isMuted) { volume, isMuted in
        volume > 0 && !isMuted
      }
      let shown = isAudible.observeValue { print("audible:", $0) }  // audible: true
      isMuted.value = true  // audible: false
      shown.cancel()
      print(isAudible.value)  // false
    }
    #expect(output == ["audible: true", "audible: false", "false"])
  }

  @Test("Migrating from NotificationCenter")
  func fromNotificationCenter() {
    let output = printed {
      let downloader = Downloader()
      let subscription = downloader.progressChanged.observe { fraction in
        print("progress", fraction)
      }
      downloader.report(0.5)  // progress 0.5
      withExtendedLifetime(subscription) {}
    }
    #expect(output == ["progress 0.5"])
  }

  @Test("Migrating from Combine subjects")
  func fromCombine() {
    let output = printed {
      let scores = EventSender<Int>()
      var subscriptions: Set<EventSubscription> = []
      scores.event.observe { print("score", $0) }.store(in: &subscriptions)
      scores.send(3)  // score 3
      subscriptions.removeAll()
      scores.send(4)  // nothing: the subscriptions ended with the set
    }
    #expect(output == ["score 3"])
  }

  @Test("Migrating from an earlier release: a set of EventSubscription, as Set<Subscription> was")
  func renamedSubscription() {
    let scores = EventSender<Int>()
    var subscriptions: Set<EventSubscription> = []  // was Set<Subscription>
    var heard: [Int] = []
    scores.event.observe { heard.append($0) }.store(in: &subscriptions)
    scores.send(1)
    subscriptions.removeAll()
    scores.send(2)
    #expect(heard == [1])
  }

  @Test("Migrating from an NSHashTable multicast delegate")
  func fromHashTable() {
    let output = printed {
      let keyboard = Keyboard()
      let chat = ChatScreen()
      keyboard.addObserver(chat)
      keyboard.show(height: 216)  // move the input bar up by 216.0
    }
    #expect(output == ["move the input bar up by 216.0"])
  }
}

// MARK: Events and observable values across actors

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

@Suite("Concurrency article: events and observable values across actors")
@MainActor
struct EventsAcrossActorsSnippetTests {
  @Test("A main-actor view model hears an upload actor's event and observable value")
  func uploadViewModel() async {
    let upload = Upload(total: 200)
    let model = UploadViewModel(upload: upload)
    // A main-actor subscription made after the model's hears each value
    // after it.
    let (heard, hear) = AsyncStream.makeStream(of: Int.self)
    let probe = upload.bytesSent.observe { hear.yield($0) }
    await upload.sent(100)
    await upload.sent(200)
    for await bytes in heard where bytes == 200 { break }
    #expect(model.status == "200 bytes sent")
    #expect(upload.fraction.value == 1)
    // A set on the main actor delivers what waits for the main actor first.
    upload.fraction.set(1)
    #expect(model.progress == 1)
    withExtendedLifetime(probe) {}
  }

  @Test("The values stream made before its task hears the first value sent after it")
  func streamMadeBeforeItsTask() async {
    let upload = Upload(total: 10)
    let sizes = upload.bytesSent.values  // subscribed from here on
    let firstSize = Task {
      for await size in sizes { return size }
      return 0
    }
    await upload.sent(10)
    #expect(await firstSize.value == 10)
  }

  @Test("A loop over values ends when the upload goes, releasing the view model it captured")
  func loopEndsWithTheUpload() async {
    var upload: Upload? = Upload(total: 10)
    var model: SizeViewModel? = SizeViewModel(sizes: upload!.bytesSent)
    weak let released = model
    let reading = model!.readingTask
    model = nil
    await upload!.sent(10)
    upload = nil
    await reading?.value
    #expect(released == nil)
  }
}

@MainActor final class SizeViewModel {
  private(set) var shown = 0
  private var reading: Task<Void, Never>?

  init(sizes: Event<Int>) {
    let values = sizes.values
    reading = Task {
      for await size in values { self.shown = size }
    }  // ends when the upload's sender goes, releasing the model
  }
}

extension SizeViewModel {
  /// The task that reads the sizes, for the test to join.
  var readingTask: Task<Void, Never>? { reading }
}

// MARK: Migrating across isolations

@MainActor
protocol UploaderObserver: AnyObject, Sendable {
  func uploader(_ uploader: Uploader, didProgress fraction: Double)
}

actor Uploader {
  private let observers = MulticastDelegate<any UploaderObserver>()

  nonisolated func addObserver(_ observer: any UploaderObserver) {
    observers.addObserver(observer)
  }

  func received(_ fraction: Double) {
    observers.onMainActor { $0.uploader(self, didProgress: fraction) }
  }
}

@MainActor
final class UploadProgressView: UploaderObserver {
  private(set) var fraction = 0.0

  init(uploader: Uploader) {
    uploader.addObserver(self)  // no token: the uploader holds the view weakly
  }

  func uploader(_ uploader: Uploader, didProgress fraction: Double) {
    self.fraction = fraction
  }
}

/// Registered after an uploader's view: records what the view shows each time
/// the probe is called, and lets a test wait for a number of calls.
@MainActor
final class UploadProbe: UploaderObserver {
  private let view: UploadProgressView
  private(set) var heard: [(fraction: Double, shown: Double)] = []
  private let arrivals = Arrivals()

  init(after view: UploadProgressView) { self.view = view }

  func uploader(_ uploader: Uploader, didProgress fraction: Double) {
    MainActor.preconditionIsolated()
    heard.append((fraction, view.fraction))
    arrivals.arrive()
  }

  func waitUntilHeard(_ count: Int) async {
    await arrivals.wait(for: count)
  }
}

@MainActor
protocol ScoreboardObserver: AnyObject, Sendable {
  func scoreboard(_ scoreboard: Scoreboard, didRecord score: Int)
}

final class Scoreboard: Sendable {
  private let observers = MulticastDelegate<any ScoreboardObserver>()

  func addObserver(_ observer: any ScoreboardObserver) {
    observers.addObserver(observer)
  }

  func record(_ score: Int, isolation: isolated (any Actor)? = #isolation) {
    observers.onMainActor { $0.scoreboard(self, didRecord: score) }
  }
}

@MainActor
final class ScoreList: ScoreboardObserver {
  private(set) var scores: [Int] = []

  func scoreboard(_ scoreboard: Scoreboard, didRecord score: Int) {
    scores.append(score)
  }
}

/// Records the scores it hears, checking that it hears them on the main actor.
@MainActor
final class ScoreProbe: ScoreboardObserver {
  private(set) var heard: [Int] = []

  func scoreboard(_ scoreboard: Scoreboard, didRecord score: Int) {
    MainActor.preconditionIsolated()
    heard.append(score)
  }
}

@Suite("Documentation snippets: migrating across isolations")
@MainActor
struct MigratingAcrossIsolationsSnippetTests {
  @Test("Migrating from typed messages: the view hears each fraction on the main actor, in order")
  func uploaderToTheMainActor() async {
    let uploader = Uploader()
    let view = UploadProgressView(uploader: uploader)
    let probe = UploadProbe(after: view)
    uploader.addObserver(probe)
    await uploader.received(0.25)
    await uploader.received(0.5)
    await uploader.received(1)
    await probe.waitUntilHeard(3)
    // Each time, the view had been shown the same fraction just before.
    #expect(probe.heard.map(\.fraction) == [0.25, 0.5, 1])
    #expect(probe.heard.map(\.shown) == [0.25, 0.5, 1])
    #expect(view.fraction == 1)
  }

  @Test("Migrating from typed messages: the uploader keeps no view alive")
  func uploaderHoldsViewsWeakly() {
    let uploader = Uploader()
    weak var released: UploadProgressView?
    do {
      let view = UploadProgressView(uploader: uploader)
      released = view
    }
    #expect(released == nil)
  }

  @Test("Migrating from receive(on:)")
  func fromReceiveOn() async {
    let output = await printed {
      let scoreboard = Scoreboard()
      let list = ScoreList()
      scoreboard.addObserver(list)
      scoreboard.record(1)  // on the main actor: delivered before record returns
      print(list.scores)  // [1]
      await Task.detached { scoreboard.record(2) }.value  // elsewhere: queued
      scoreboard.record(3)  // delivers what is still queued first, then 3
      print(list.scores)  // [1, 2, 3]
    }
    #expect(output == ["[1]", "[1, 2, 3]"])
  }

  @Test("Migrating from receive(on:): scores from a background task reach the main actor in order")
  func scoresFromABackgroundTask() async {
    let scoreboard = Scoreboard()
    let probe = ScoreProbe()
    scoreboard.addObserver(probe)
    await Task.detached {
      for score in 1...100 { scoreboard.record(score) }
    }.value
    scoreboard.record(101)  // on the main actor: delivers what is still queued first
    #expect(probe.heard == Array(1...101))
  }

  @Test(
    "Migrating from receive(on:): a score recorded from nonisolated code running on the main actor is delivered before it returns"
  )
  func nonisolatedCallerOnTheMainActor() {
    let scoreboard = Scoreboard()
    let probe = ScoreProbe()
    scoreboard.addObserver(probe)
    recordFromNonisolatedCode(7, on: scoreboard)
    #expect(probe.heard == [7])  // where the code runs decides, not what the compiler knows
    scoreboard.record(8)
    #expect(probe.heard == [7, 8])
  }
}

/// Synchronous and nonisolated: `#isolation` is `nil` here, even on the main
/// thread.
private nonisolated func recordFromNonisolatedCode(_ score: Int, on scoreboard: Scoreboard) {
  scoreboard.record(score)
}

/// The Concurrency article's delivery model: a plain class's nonisolated
/// method, used from the main actor.
enum DeliveryModelSnippet {
  final class Metronome: Sendable {
    private let tick = EventSender<Int>()
    var ticks: Event<Int> { tick.event }
    func beat(_ count: Int) { tick.send(count) }
  }

  @MainActor
  final class TickView {
    private(set) var shown: [Int] = []
    private var subscription: EventSubscription?

    init(_ metronome: Metronome) {
      subscription = metronome.ticks.observe { [unowned self] in shown.append($0) }
    }
  }
}

@Suite("Documentation snippets: the delivery model")
@MainActor
struct DeliveryModelSnippetTests {
  typealias Metronome = DeliveryModelSnippet.Metronome
  typealias TickView = DeliveryModelSnippet.TickView

  @Test(
    "The delivery model: a nonisolated method called on the main actor delivers there before it returns; a detached task's send is queued until waited for"
  )
  func metronomeOnTheMainActor() async {
    let output = await printed {
      let metronome = Metronome()
      let view = TickView(metronome)
      metronome.beat(1)  // a nonisolated method, called on the main actor
      print(view.shown)  // [1]: the send ran where the view lives
      await Task.detached { metronome.beat(2) }.value  // elsewhere: queued
      await waitForDeliveries()
      print(view.shown)  // [1, 2]
    }
    #expect(output == ["[1]", "[1, 2]"])
  }
}

// MARK: SwiftUI and Observation

final class MusicPlayer: Sendable {
  let volume = ObservableValue(0.5)
}

#if canImport(SwiftUI)
import SwiftUI

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct VolumeView: View {
  let player: MusicPlayer

  var body: some View {
    Text("Volume \(Int(player.volume.value * 100))%")
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct SpeakerIcon: View {
  let isAudible: DerivedValue<Bool>

  var body: some View {
    Image(systemName: isAudible.value ? "speaker.wave.2" : "speaker.slash")
  }
}
#endif

/// A stand-in for a view that draws a fraction, counting its redraws.
@MainActor
final class ProgressBar {
  var fraction = 0.0 {
    didSet { redraws += 1 }
  }
  private(set) var redraws = 0
}

@MainActor
final class DownloadViewController {
  let bar = ProgressBar()
  private var subscription: EventSubscription?

  func show(_ progress: ObservableValue<Double>) {
    subscription = progress.observe(delivering: .latest) { [bar] _, new in
      bar.fraction = new
    }
  }
}

/// Assigns `1...count` to `progress` from a new thread, and returns once all
/// are assigned: the caller's isolation, blocked meanwhile, runs nothing.
private func assignProgress(_ count: Int, to progress: ObservableValue<Double>) {
  let assigned = DispatchSemaphore(value: 0)
  // Unowned: the thread's closure, which lives as long as the thread
  // object, does not keep the value.
  Thread { [unowned progress] in
    for step in 1...count { progress.value = Double(step) }
    assigned.signal()
  }.start()
  assigned.wait()
}

/// Redraws `bar` with the latest of `progress`'s changes, at most once a
/// frame, until `progress` is released.
@MainActor
private func redrawPaced(
  _ progress: ObservableValue<Double>, on bar: ProgressBar
) -> Task<Void, Never> {
  let changes = progress.changes.values(bufferingPolicy: .bufferingNewest(1))
  let reading = Task { @MainActor [bar] in
    for await change in changes {
      bar.fraction = change.new
      try? await Task.sleep(for: .milliseconds(16))
    }
  }
  return reading
}

@Suite("Documentation snippets: a progress view that keeps up")
@MainActor
struct ProgressSnippetTests {
  @Test(
    "A view controller subscribed for the latest redraws a few times for 10,000 changes made while the main actor was busy, the last change last"
  )
  func latestProgress() async {
    let progress = ObservableValue(0.0)
    let controller = DownloadViewController()
    controller.show(progress)
    assignProgress(10_000, to: progress)
    await waitForDeliveries()
    #expect(controller.bar.fraction == 10_000)
    // Once, unless other tests' work for the main actor came between.
    #expect(controller.bar.redraws <= 200, "redrew \(controller.bar.redraws) times")
  }

  @Test(
    "A paced stream that keeps the newest redraws at most twice for 10,000 changes made while the main actor was busy, shows the last, and ends with the value"
  )
  func pacedProgress() async {
    var progress: ObservableValue<Double>? = ObservableValue(0.0)
    let bar = ProgressBar()
    let reading = redrawPaced(progress!, on: bar)
    assignProgress(10_000, to: progress!)
    weak let released = progress
    progress = nil  // the stream ends, and the task with it
    // Bounded, above a whole run under ThreadSanitizer (4 to 15 minutes),
    // since the stream's end reaches the task only on the main actor, which
    // other tests' floods keep busy for minutes there: a stream that did not
    // end is cancelled then.
    let ended = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await reading.value
        return true
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(900))
        return false
      }
      let first = await group.next() ?? false
      if !first { reading.cancel() }
      group.cancelAll()
      return first
    }
    #expect(ended, "the stream did not end; the value was released: \(released == nil)")
    #expect(bar.fraction == 10_000)
    #expect(bar.redraws <= 2, "redrew \(bar.redraws) times")
  }
}

#if canImport(Observation)
import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class SpeakerModel {
  @ObservationIgnored let volume: ObservableValue<Double>

  init(volume: ObservableValue<Double>) {
    self.volume = volume
  }

  var percent: Int { Int((volume.value * 100).rounded()) }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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

@Suite("Documentation snippets: SwiftUI and Observation")
struct ObservationSnippetTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test("A model's property that reads a value is tracked; onChange reads the new value")
  func trackedModel() {
    let output = printed {
      let player = MusicPlayer()
      let model = SpeakerModel(volume: player.volume)
      withObservationTracking {
        print("percent", model.percent)  // percent 50
      } onChange: {
        print("changed to", player.volume.value)
      }
      player.volume.value = 0.7  // changed to 0.7
    }
    #expect(output == ["percent 50", "changed to 0.7"])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(
    "A derived value's read is tracked through its sources, and subscribes to none of them")
  func trackedDerivedValue() {
    let output = printed {
      let player = MusicPlayer()
      let isMuted = ObservableValue(false)
      let isAudible = player.volume.combined(with: isMuted) { volume, isMuted in
        volume > 0 && !isMuted
      }
      withObservationTracking {
        print("audible", isAudible.value)  // audible true
      } onChange: {
        print("changed")
      }
      #expect(!player.volume.changes.hasObservers && !isMuted.changes.hasObservers)
      isMuted.value = true  // changed
      print("audible", isAudible.value)  // audible false
    }
    #expect(output == ["audible true", "changed", "audible false"])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  @Test("A view model subscribed to an event hears it on the main actor, and tracks it")
  func statusModel() async {
    let status = EventSender<String>()
    let changes = Locked(0)
    weak var released: StatusModel?
    do {
      let model = StatusModel(status: status.event)
      released = model
      withObservationTracking {
        _ = model.lines
      } onChange: {
        changes.withLock { $0 += 1 }
      }
      status.send("connected")
      await Task.detached { status.send("syncing") }.value
      await waitForDeliveries()
      #expect(model.lines == ["connected", "syncing"])
      #expect(changes.withLock { $0 } == 1)
    }
    #expect(released == nil, "the subscription does not keep the model")
    #expect(status.hasObservers == false, "the model's subscription ended with it")
  }
}
#endif
