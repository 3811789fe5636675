/// The page `extdisplay play FILE --serve` serves at `/`: the browser plays the file itself in a `<video>`
/// (`/media`, streamed with range requests) and follows the player's timeline from `/ws`.
///
/// - It first asks its browser about the container (`canPlayType` of the `Content-Type` the server read from the
///   file); a browser that cannot play it, or that fails on the codec later (the media element's `error` event),
///   says so on screen with the file's name and type — never a black page.
/// - Clock: it measures the offset between its clock and the player's with `{"type":"clock","page":T}` →
///   `{"type":"clock","page":T,"host":H}` round trips (H at the middle of the trip; the sample with the shortest
///   round trip of the last eight wins), five a second for two seconds, then every five seconds.
/// - Timeline: each `{"type":"timeline","message":{…TimelineMessage…}}` (anchor + rate; `item` left out) is followed
///   with the rule of ``ExternalDisplayMedia/FollowerDriftCorrector``, in JavaScript, every 100 ms: a
///   discontinuity → seek to where the player will be once the seek lands (the seek latency learnt from each
///   landing, 0…2 s); paused → seek beyond 40 ms; beyond 0.5 s → seek; beyond 40 ms (20 ms once easing) → rate
///   ± drift / 2 s, at most ±10 %; back within 20 ms → the player's rate; nothing for 0.5 s after a seek.
/// - Sound: the page starts muted (browsers refuse to start a film with sound on their own); a click or a key
///   turns it on.
///
/// `window.edkVideo` holds what tests read: the clock offset and round trip, the last correction, the drift, the
/// seek latency learnt, whether the page is in step (within 40 ms, not easing), whether the browser can play the
/// file, and the message shown.
enum VideoPage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>extdisplay play</title>
    <style>
    html,body{margin:0;height:100%;background:#000;overflow:hidden}
    video{position:fixed;inset:0;width:100vw;height:100vh;object-fit:contain;background:#000}
    #say{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;text-align:center;
      padding:2em;color:#e8ecf0;font:24px system-ui,sans-serif;z-index:1;white-space:pre-line}
    #sound{position:fixed;right:1em;bottom:1em;color:#8a93a6;font:14px system-ui,sans-serif;z-index:1}
    </style></head>
    <body><video id="video" muted playsinline preload="auto"></video>
    <div id="say">Waiting for the player…</div><div id="sound">Click for sound</div>
    <script>
    "use strict";
    const video = document.getElementById("video"), say = document.getElementById("say");
    const sound = document.getElementById("sound");
    const state = window.edkVideo = {offset: null, roundTrip: null, correction: "none", drift: null,
                                     seekLatency: 0.1, playable: null, message: "", settled: false};
    function show(text) { state.message = text; say.textContent = text; say.style.display = text ? "flex" : "none"; }
    function pageNow() { return performance.now() / 1000; }
    let socket = null, leader = null;
    let name = "the video", type = "";
    const samples = [];

    document.addEventListener("click", unmute);
    document.addEventListener("keydown", unmute);
    function unmute() { video.muted = false; sound.style.display = "none"; }

    video.addEventListener("error", () => {
      const error = video.error;
      const why = {1: "loading was aborted", 2: "a network error stopped the download",
                   3: "the video could not be decoded", 4: "this browser cannot play this file's codec or container"};
      state.playable = false;
      show("This browser cannot play " + name + " (" + type + "): " + (why[error && error.code] || "media error")
           + (error && error.message ? "\\n" + error.message : "")
           + "\\nThe film goes on on the player's own display.");
    });
    video.addEventListener("loadeddata", () => { if (state.playable !== false) { state.playable = true; show(""); } });

    function hello(message) {
      name = message.name; type = message.contentType;
      if (video.src) return;
      if (!video.canPlayType(type)) {
        state.playable = false;
        show("This browser cannot play " + name + " (" + type + ").\\nThe film goes on on the player's own display.");
        return;
      }
      show("Loading " + name + "…");
      video.src = "/media";
    }

    // The clock: the player's host time is the page's time + offset.
    function sendClock() {
      if (socket && socket.readyState === 1) socket.send(JSON.stringify({type: "clock", page: pageNow()}));
    }
    function clock(message) {
      const now = pageNow(), trip = now - message.page;
      if (!(trip >= 0) || !isFinite(message.host)) return;
      samples.push({trip: trip, offset: message.host - (message.page + now) / 2});
      if (samples.length > 8) samples.shift();
      const best = samples.reduce((a, b) => (b.trip < a.trip ? b : a));
      state.offset = best.offset; state.roundTrip = best.trip;
      follow();
    }

    // The leader's position at host time `at` (the anchor moved on at the rate, within 0…duration).
    function positionOf(leader, at) {
      let position = leader.mediaTime + (at - leader.hostTime) * leader.rate;
      if (!isFinite(position)) position = leader.mediaTime;
      if (leader.duration != null) position = Math.min(position, leader.duration);
      return Math.max(0, position);
    }

    // FollowerDriftCorrector's rule (ExternalDisplayMedia), with its default thresholds: given the leader's
    // message, where the video is and the leader's clock now, the answer {kind: "none" | "rate" | "seek" |
    // "ignored", rate, to}. Pure but for its own memory (window.edkCorrector makes one, for tests).
    const tolerance = 0.04, seekBeyond = 0.5, easingTime = 2, maximumRateChange = 0.1, settleTime = 0.5;
    function makeCorrector() {
      const c = {lastSequence: null, lastSeek: null, unmeasured: false, easing: false, seekLatency: 0.1};
      function seek(leader, target, hostNow) {
        c.lastSeek = hostNow; c.easing = false; c.unmeasured = true;
        const rate = leader.rate;
        return {kind: "seek", to: rate > 0 ? positionOf(leader, hostNow + c.seekLatency) : target, rate: rate};
      }
      c.correct = function (leader, position, hostNow) {
        if (!(isFinite(position) && position >= 0) || !isFinite(hostNow)) return {kind: "ignored"};
        if (c.lastSequence !== null && leader.sequence < c.lastSequence) return {kind: "ignored"};
        const target = positionOf(leader, hostNow), rate = leader.rate;
        const isNew = leader.sequence !== c.lastSequence;
        c.lastSequence = leader.sequence;
        if (isNew && leader.discontinuity) return seek(leader, target, hostNow);
        if (c.lastSeek !== null && hostNow >= c.lastSeek && hostNow - c.lastSeek < settleTime) return {kind: "none", settling: true};
        const drift = position - target;
        if (c.unmeasured) {
          c.unmeasured = false;
          if (rate > 0) c.seekLatency = Math.min(2, Math.max(0, c.seekLatency - drift / rate));
        }
        if (Math.abs(drift) > seekBeyond || (rate <= 0 && Math.abs(drift) > tolerance)) return seek(leader, target, hostNow);
        const band = c.easing ? tolerance / 2 : tolerance;
        if (!(Math.abs(drift) > band && rate > 0)) {
          if (!c.easing) return {kind: "none"};
          c.easing = false;
          return {kind: "rate", rate: rate};
        }
        const limit = rate * maximumRateChange;
        c.easing = true;
        return {kind: "rate", rate: rate + Math.min(limit, Math.max(-limit, -drift / easingTime))};
      };
      return c;
    }
    window.edkCorrector = makeCorrector;
    const corrector = makeCorrector();

    function apply(rate) {
      if (rate > 0) {
        video.playbackRate = rate;
        if (video.paused) video.play().catch(() => {});
      } else if (!video.paused) {
        video.pause();
      }
    }
    // Every 100 ms and on every message: the rule's answer, carried out on the video element. Between answers
    // the element plays at the leader's rate (or pauses with it) unless it is easing.
    function follow() {
      if (!leader || state.offset === null || state.playable === false || !video.src || video.readyState < 1) return;
      const hostNow = pageNow() + state.offset;
      const answer = corrector.correct(leader, video.currentTime, hostNow);
      state.drift = video.currentTime - positionOf(leader, hostNow);
      state.seekLatency = corrector.seekLatency;
      if (answer.kind === "seek") {
        state.correction = "seek " + answer.to.toFixed(3) + " rate " + answer.rate;
        video.currentTime = answer.to;
        apply(answer.rate);
      } else if (answer.kind === "rate") {
        state.correction = "rate " + answer.rate.toFixed(4);
        apply(answer.rate);
      } else if (!corrector.easing) {
        apply(leader.rate);
      }
      state.settled = answer.kind === "none" && !answer.settling && !corrector.easing && Math.abs(state.drift) <= tolerance;
    }
    video.addEventListener("loadedmetadata", follow);
    setInterval(follow, 100);

    let clockTimer = null;
    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/ws");
      socket.onopen = () => {
        samples.length = 0;
        let sent = 0;
        clearInterval(clockTimer);
        clockTimer = setInterval(() => { sendClock(); if (++sent === 10) { clearInterval(clockTimer); clockTimer = setInterval(sendClock, 5000); } }, 200);
        sendClock();
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "hello") hello(message);
        else if (message.type === "clock") clock(message);
        else if (message.type === "timeline") {
          if (leader && message.message.sequence < leader.sequence) return;
          leader = message.message;
          follow();
        }
      };
      socket.onclose = () => {
        clearInterval(clockTimer);
        if (state.playable !== false && !video.src) show("Waiting for the player…");
        setTimeout(connect, 1000);
      };
    }
    connect();
    </script></body></html>
    """
}
