// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// A request to an ``AudioPlayer``, as a person types it: `play N`, `pause`,
/// `resume`, `next`, `stop`, `volume L`, `wait S` or `quit`.
public enum Command: Equatable, Sendable {
  /// Play the item at a position in the playlist, counted from 1.
  case play(Int)
  /// Pause the item playing.
  case pause
  /// Resume the paused item.
  case resume
  /// Play the next item.
  case next
  /// Stop playing.
  case stop
  /// Set the volume: `volume 0.8`.
  case volume(AudioPlayer.Volume)
  /// Let playback run for a number of seconds: `wait 30`.
  case wait(TrackDuration)
  /// End the session.
  case quit

  /// Why a line is not a command.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    /// The line as it was typed.
    public var line: String
    /// What is wrong with it.
    public var reason: String

    /// The line and the reason, as one sentence: `'volume 2': volume takes a
    /// level from 0 to 1, such as 'volume 0.8'`.
    public var description: String { "'\(line)': \(reason)" }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - line: The line as it was typed.
    ///   - reason: What is wrong with it.
    public init(line: String, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  /// Parses one line; blank lines and lines starting with `#` are `nil`.
  ///
  /// - Parameter line: The line as typed.
  /// - Throws: ``ParseError`` naming the line and what is wrong with it.
  public init?(parsing line: String) throws(ParseError) {
    let words = line.split(whereSeparator: \.isWhitespace)
    guard let name = words.first, !name.hasPrefix("#") else { return nil }
    let arguments = words.dropFirst()
    switch (name.lowercased(), arguments.count) {
    case ("play", 1):
      guard let position = Int(arguments[arguments.startIndex]), position >= 1 else {
        throw ParseError(line: line, reason: "play takes a position from 1, such as 'play 2'")
      }
      self = .play(position)
    case ("play", _):
      throw ParseError(line: line, reason: "play takes one position, such as 'play 2'")
    case ("volume", 1):
      guard let level = Double(arguments[arguments.startIndex]),
        let volume = AudioPlayer.Volume(level)
      else {
        throw ParseError(
          line: line, reason: "volume takes a level from 0 to 1, such as 'volume 0.8'")
      }
      self = .volume(volume)
    case ("wait", 1):
      guard let seconds = Int(arguments[arguments.startIndex]), seconds >= 1 else {
        throw ParseError(
          line: line, reason: "wait takes a number of seconds from 1, such as 'wait 30'")
      }
      self = .wait(.seconds(seconds))
    case ("volume", _):
      throw ParseError(line: line, reason: "volume takes one level, such as 'volume 0.8'")
    case ("wait", _):
      throw ParseError(line: line, reason: "wait takes one number of seconds, such as 'wait 30'")
    case ("pause", 0): self = .pause
    case ("resume", 0): self = .resume
    case ("next", 0): self = .next
    case ("stop", 0): self = .stop
    case ("quit", 0): self = .quit
    case ("pause", _), ("resume", _), ("next", _), ("stop", _), ("quit", _):
      throw ParseError(line: line, reason: "\(name) takes no argument")
    default:
      throw ParseError(
        line: line,
        reason: "unknown command; try play N, pause, resume, next, stop, volume L, wait S or quit")
    }
  }
}

extension AudioPlayer {
  /// Carries out `command`.
  ///
  /// The volume is set where this is called, so that its observers there
  /// hear the change before this returns (on the main actor, the views); the
  /// other commands run on the player's actor, and the views hear them once
  /// they reach the main actor (the library's `waitForDeliveries()` waits
  /// for that).
  ///
  /// - Parameter command: What to do; ``Command/quit`` does nothing here.
  /// - Throws: ``Error/noSuchItem(position:playlistCount:)`` for a position
  ///   past the end of the playlist; nothing changes then.
  public nonisolated func perform(_ command: Command) async throws(Error) {
    switch command {
    case .play(let position): try await play(at: position - 1)
    case .pause: await pause()
    case .resume: await resume()
    case .next: await next()
    case .stop: await stop()
    case .volume(let volume): self.volume.set(volume)
    case .wait(let duration): await advance(by: duration)
    case .quit: break
    }
  }
}
