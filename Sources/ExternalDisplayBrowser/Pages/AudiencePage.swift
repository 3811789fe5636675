/// The audience page, served at `/` from the binary. It reports its viewport (and every resize), holds up to four
/// pictures decoded (binary messages: frame number + PNG; the server sends the slides either side ahead), draws
/// the one it is told to show (`{"type":"show","frame":K}`, the newest wins) onto a canvas of its size in device
/// pixels, reports each frame it painted, and reconnects (as a new display) when the connection drops.
/// `window.edkPaints` keeps the last 1,000 `[frame, epoch ms, paint count]` records for tests and benchmarks,
/// taken after the animation frame that shows the picture; `window.edkStats` counts pictures received and decoded,
/// shows, shows that had to wait for their picture to decode, and shows of a picture the page did not hold.
enum AudiencePage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>extdisplay</title>
    <style>
    html,body{margin:0;height:100%;background:#000;overflow:hidden}
    canvas{display:block;position:fixed;left:0;top:0;width:100vw;height:100vh}
    #wait{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;
      color:#8a93a6;font:24px system-ui,sans-serif}
    </style></head>
    <body><canvas id="screen"></canvas><div id="wait">Waiting for the presenter…</div>
    <script>
    "use strict";
    const canvas = document.getElementById("screen"), pen = canvas.getContext("2d");
    const wait = document.getElementById("wait");
    window.edkPaints = [];
    let socket = null, content = "placeholder", reported = "", paints = 0;

    function black() { pen.fillStyle = "#000"; pen.fillRect(0, 0, canvas.width, canvas.height); }

    function reportViewport() {
      if (!socket || socket.readyState !== 1) return;
      const dpr = window.devicePixelRatio || 1, width = window.innerWidth, height = window.innerHeight;
      const key = width + "x" + height + "@" + dpr;
      if (key === reported) return;
      reported = key;
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      black();
      socket.send(JSON.stringify({type: "viewport", width: width, height: height, dpr: dpr}));
    }

    // Pictures held decoded, by frame number, least recently used first: the server keeps an exact mirror
    // (same capacity, same rule, same message order) and sends a picture only when it is not held here.
    const capacity = 4;
    let held = new Map(), shown = null, wanted = null;
    window.edkStats = {pictures: 0, decoded: 0, shows: 0, waited: 0, missing: 0};

    function hold(frame, bytes) {
      const entry = {bitmap: null, ready: null};
      entry.ready = createImageBitmap(new Blob([bytes], {type: "image/png"}),
                                      {colorSpaceConversion: "none", premultiplyAlpha: "none"})
        .then(function (bitmap) {
          if (held.get(frame) !== entry) { bitmap.close(); return null; }
          entry.bitmap = bitmap;
          window.edkStats.decoded += 1;
          return bitmap;
        }, function () { return null; });
      if (held.has(frame)) drop(frame);
      held.set(frame, entry);
      for (const old of held.keys()) {
        if (held.size <= capacity) break;
        if (old !== shown) drop(old);
      }
    }

    function drop(frame) {
      const entry = held.get(frame);
      held.delete(frame);
      if (entry && entry.bitmap) entry.bitmap.close();
    }

    // The time after the frame that shows the picture: the animation frame's callbacks run before it is painted,
    // a message posted from one runs once that frame's rendering is done.
    function afterNextPaint(then) {
      requestAnimationFrame(function () {
        const channel = new MessageChannel();
        channel.port1.onmessage = function () { then(performance.timeOrigin + performance.now()); };
        channel.port2.postMessage(0);
      });
    }

    async function show(frame) {
      const entry = held.get(frame);
      if (!entry) { window.edkStats.missing += 1; return; }
      held.delete(frame);
      held.set(frame, entry);
      shown = frame;
      wanted = frame;
      window.edkStats.shows += 1;
      if (!entry.bitmap) window.edkStats.waited += 1;
      const bitmap = entry.bitmap || await entry.ready;
      if (!bitmap || wanted !== frame || content !== "app") return;
      pen.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      afterNextPaint(function (at) {
        window.edkPaints.push([frame, at, ++paints]);
        if (window.edkPaints.length > 1000) window.edkPaints.shift();
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({type: "painted", frame: frame, at: at}));
      });
    }

    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      socket.binaryType = "arraybuffer";
      socket.onopen = function () {
        for (const frame of Array.from(held.keys())) drop(frame);
        shown = null;
        wanted = null;
        reported = "";
        reportViewport();
      };
      socket.onmessage = function (event) {
        if (typeof event.data === "string") {
          let message = null;
          try { message = JSON.parse(event.data); } catch (e) { return; }
          if (message.type === "show") { show(message.frame); return; }
          content = message.type;
          if (content !== "app") black();
          wait.style.display = content === "placeholder" ? "flex" : "none";
          return;
        }
        window.edkStats.pictures += 1;
        hold(new DataView(event.data).getUint32(0), new Uint8Array(event.data, 4));
      };
      socket.onclose = function () {
        socket = null;
        content = "placeholder";
        wait.textContent = "Reconnecting…";
        wait.style.display = "flex";
        setTimeout(connect, 1000);
      };
    }

    window.addEventListener("resize", function () { requestAnimationFrame(reportViewport); });
    black();
    connect();
    </script></body></html>
    """
}
