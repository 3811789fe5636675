/// The page `extdisplay play FILE --serve` serves at `/` (and, with the controls, at `/remote?token=…`): the
/// browser plays the file itself in a `<video>` (`/media`, streamed with range requests) and follows the player's
/// timeline from `/ws`.
///
/// - It first asks its browser about the container (`canPlayType` of the `Content-Type` the server read from the
///   file); a browser that cannot play it, or that fails on the codec later (the media element's `error` event),
///   says so on screen with the file's name and type — never a black page.
/// - Clock: it measures the offset between its clock and the player's with `{"type":"clock","page":T}` →
///   `{"type":"clock","page":T,"host":H}` round trips (H at the middle of the trip; the sample with the shortest
///   round trip of the last eight wins), five a second for two seconds, then every five seconds.
/// - Timeline: each `{"type":"timeline","message":{…TimelineMessage…}}` (anchor + rate; `item` left out) is followed
///   with the rule of ``ExternalDisplayMedia/FollowerDriftCorrector``, in JavaScript, every 50 ms: a
///   discontinuity → seek to where the player will be once the seek lands (the seek latency learnt from each
///   landing, 0…2 s); paused → seek beyond 40 ms; beyond 0.5 s → seek; beyond 40 ms (20 ms once easing) → rate
///   ± drift / 2 s, at most ±10 %; back within 20 ms → the player's rate; nothing for 0.5 s after a seek. The
///   page's own corrector departs from the reference in three settings (the reference's traces are unchanged):
///   the seek latency is learnt from the drift against the message the seek was aimed by, not against a later
///   one (the player's latency updates move the anchor, which is no error of the seek's); it looks 0.2 s after a
///   seek and once the element has finished seeking, not 0.5 s after; and for 3 s after a jump it seeks again
///   beyond 40 ms instead of easing. The rule is applied every 50 ms. A page settles in under a
///   second after a seek (`settleTime`, `settles`: seconds from the jump's message to in step).
/// - Sound: the page starts muted (browsers refuse to start a film with sound on their own); a click or a key
///   turns it on. Pages play at the player's volume (`{"type":"volume","level":L}`).
/// - The remote (`/remote?token=…`, its socket `/remote/ws?token=…`): a bar of controls — play/pause, 10 s back and
///   forward, a position slider, the rate, the volume — each sending `{"type":"control","action":A,"value":N}`. The
///   page shows what the player decides (the timeline, the volume, the answers it sends back), never its own guess.
///
/// `window.edkVideo` holds what tests read: the clock offset and round trip, the last correction, the drift, the
/// seek latency learnt, whether the page is in step (within 40 ms, not easing), whether the browser can play the
/// file, and the message shown; `window.edkControl(action, value)` sends a control as the remote's buttons do.
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
    #controls{position:fixed;left:0;right:0;bottom:0;display:none;gap:.5em;align-items:center;padding:.5em;
      background:rgba(16,20,24,.85);color:#e8ecf0;font:14px system-ui,sans-serif;z-index:2;flex-wrap:wrap}
    #controls button,#controls select{font:inherit;padding:.3em .7em}
    #position{flex:1;min-width:8em}
    #answer{flex-basis:100%;color:#ffb0b0;min-height:1.2em}
    </style></head>
    <body><video id="video" muted playsinline preload="auto"></video>
    <div id="say">Waiting for the player…</div><div id="sound">Click for sound</div>
    <div id="controls"><button id="toggle">Pause</button><button id="back">−10 s</button><button id="forward">+10 s</button>
    <input id="position" type="range" min="0" max="1" step="0.1" value="0"><span id="time">0:00</span>
    <select id="rate"><option>0.5</option><option>0.75</option><option selected>1</option><option>1.25</option>
    <option>1.5</option><option>2</option></select>
    <label>Volume <input id="volume" type="range" min="0" max="1" step="0.05" value="1"></label><div id="answer"></div></div>
    <script>
    "use strict";
    const video = document.getElementById("video"), say = document.getElementById("say");
    const sound = document.getElementById("sound");
    const state = window.edkVideo = {offset: null, roundTrip: null, correction: "none", drift: null,
                                     seekLatency: 0.1, playable: null, message: "", settled: false,
                                     remote: false, volume: null, answer: "", sent: 0, settleTime: null, settles: [],
                                     corrections: []};
    // The remote: this page's own URL carries the token (/remote?token=…), its socket presents it.
    const token = new URLSearchParams(location.search).get("token");
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
      // settleTime, learnsFromSeekLeader and reseekWithin are the reference's (0.5 s, false, 0) unless a driver
      // changes them: this page's own corrector learns against the message it sought by and seeks again after a
      // jump (see below).
      const c = {lastSequence: null, lastSeek: null, unmeasured: false, easing: false, seekLatency: 0.1,
                 settleTime: settleTime, learnsFromSeekLeader: false, reseekWithin: 0, lastJump: null, seekLeader: null};
      function seek(leader, target, hostNow) {
        c.lastSeek = hostNow; c.easing = false; c.unmeasured = true; c.seekLeader = leader;
        const rate = leader.rate;
        return {kind: "seek", to: rate > 0 ? positionOf(leader, hostNow + c.seekLatency) : target, rate: rate};
      }
      c.correct = function (leader, position, hostNow) {
        if (!(isFinite(position) && position >= 0) || !isFinite(hostNow)) return {kind: "ignored"};
        if (c.lastSequence !== null && leader.sequence < c.lastSequence) return {kind: "ignored"};
        const target = positionOf(leader, hostNow), rate = leader.rate;
        const isNew = leader.sequence !== c.lastSequence;
        c.lastSequence = leader.sequence;
        if (isNew && leader.discontinuity) { c.lastJump = hostNow; return seek(leader, target, hostNow); }
        if (c.lastSeek !== null && hostNow >= c.lastSeek && hostNow - c.lastSeek < c.settleTime) return {kind: "none", settling: true};
        const drift = position - target;
        if (c.unmeasured) {
          c.unmeasured = false;
          // The drift against the message the seek was aimed by: a later message moving the anchor (the player's
          // display latency learnt anew) is no error of the seek's.
          const landed = c.learnsFromSeekLeader && c.seekLeader ? position - positionOf(c.seekLeader, hostNow) : drift;
          if (rate > 0) c.seekLatency = Math.min(2, Math.max(0, c.seekLatency - landed / rate));
        }
        const justJumped = c.lastJump !== null && hostNow >= c.lastJump && hostNow - c.lastJump < c.reseekWithin;
        if (Math.abs(drift) > seekBeyond || ((rate <= 0 || justJumped) && Math.abs(drift) > tolerance)) return seek(leader, target, hostNow);
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
    // This page's corrector learns the seek latency against the message it sought by, never against a later one
    // (the player's display latency learnt anew moves the anchor, and that is no error of the seek's); it looks
    // 0.2 s after a seek and not before the element has finished seeking (a seek in what the page holds lands in
    // a fraction of that), every 50 ms; and, for 3 s after a jump,
    // seeks again rather than easing a drift beyond 40 ms out over seconds.
    const corrector = makeCorrector();
    corrector.learnsFromSeekLeader = true; corrector.settleTime = 0.2; corrector.reseekWithin = 3;
    let jumpAt = null;

    function apply(rate) {
      if (rate > 0) {
        video.playbackRate = rate;
        if (video.paused) video.play().catch(() => {});
      } else if (!video.paused) {
        video.pause();
      }
    }
    // Every 50 ms and on every message: the rule's answer, carried out on the video element. Between answers
    // the element plays at the leader's rate (or pauses with it) unless it is easing.
    function follow() {
      if (!leader || state.offset === null || state.playable === false || !video.src || video.readyState < 1) return;
      // A seek still under way says nothing about where the element will be (unless a new jump is due).
      if (video.seeking && !(leader.discontinuity && leader.sequence !== corrector.lastSequence)) return;
      const hostNow = pageNow() + state.offset;
      const answer = corrector.correct(leader, video.currentTime, hostNow);
      state.drift = video.currentTime - positionOf(leader, hostNow);
      state.seekLatency = corrector.seekLatency;
      if (answer.kind !== "none") {
        state.corrections.push((jumpAt === null ? "" : (pageNow() - jumpAt).toFixed(2) + " s ") + answer.kind
                               + " drift " + (state.drift * 1000).toFixed(0) + " ms");
        if (state.corrections.length > 12) state.corrections.shift();
      }
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
      if (state.settled && jumpAt !== null) { state.settleTime = pageNow() - jumpAt; state.settles.push(state.settleTime); jumpAt = null; }
    }
    video.addEventListener("loadedmetadata", follow);
    setInterval(follow, 50);

    // The remote's controls: each a request to the player; what they show comes from the player's messages.
    function control(action, value) {
      if (!socket || socket.readyState !== 1) return;
      const message = {type: "control", action: action};
      if (value !== undefined) message.value = value;
      socket.send(JSON.stringify(message));
      state.sent += 1;
    }
    window.edkControl = control;
    const position = document.getElementById("position"), time = document.getElementById("time");
    let dragging = false;
    function clockText(t) { t = Math.max(0, t || 0); const s = Math.floor(t % 60);
      return Math.floor(t / 60) + ":" + (s < 10 ? "0" : "") + s; }
    function showControls() {
      if (!token || !leader) return;
      const hostNow = state.offset === null ? leader.hostTime : pageNow() + state.offset;
      const at = positionOf(leader, hostNow);
      document.getElementById("toggle").textContent = leader.rate > 0 ? "Pause" : "Play";
      if (leader.duration != null) position.max = leader.duration;
      if (!dragging) position.value = at;
      time.textContent = clockText(at) + (leader.duration != null ? " / " + clockText(leader.duration) : "");
      if (leader.rate > 0) document.getElementById("rate").value = String(leader.rate);
    }
    if (token) {
      state.remote = true;
      document.getElementById("controls").style.display = "flex";
      sound.style.bottom = "4em";
      document.getElementById("toggle").onclick = () => control("toggle");
      document.getElementById("back").onclick = () => control("seekBy", -10);
      document.getElementById("forward").onclick = () => control("seekBy", 10);
      position.oninput = () => { dragging = true; };
      position.onchange = () => { dragging = false; control("seekTo", Number(position.value)); };
      document.getElementById("rate").onchange = (event) => control("rate", Number(event.target.value));
      document.getElementById("volume").onchange = (event) => control("volume", Number(event.target.value));
      setInterval(showControls, 250);
    }

    let clockTimer = null;
    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + (token ? "/remote/ws?token=" + encodeURIComponent(token) : "/ws"));
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
          if (message.message.discontinuity && (!leader || message.message.sequence > leader.sequence)) jumpAt = pageNow();
          leader = message.message;
          follow();
          showControls();
        } else if (message.type === "volume") {
          state.volume = message.level;
          video.volume = Math.min(1, Math.max(0, message.level));
          if (token) document.getElementById("volume").value = message.level;
        } else if (message.type === "answer" || message.type === "error") {
          state.answer = message.text;
          if (token) document.getElementById("answer").textContent = message.text;
        }
      };
      socket.onclose = (event) => {
        if (event.reason) { state.answer = "closed: " + event.reason; if (token) document.getElementById("answer").textContent = state.answer; }
        clearInterval(clockTimer);
        if (state.playable !== false && !video.src) show("Waiting for the player…");
        setTimeout(connect, 1000);
      };
    }
    connect();
    </script></body></html>
    """
}
