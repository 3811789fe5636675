/// The audience page, served at `/` from the binary. It reports its viewport (and every resize), draws the
/// newest frame it receives onto a canvas of its size in device pixels, reports each frame it painted, and
/// reconnects (as a new display) when the connection drops. `window.edkPaints` keeps the last 1,000
/// `[frame, epoch ms]` paint records for tests and benchmarks.
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
    let socket = null, content = "placeholder", pending = null, drawing = false, reported = "";

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

    async function drawNewest() {
      drawing = true;
      while (pending) {
        const data = pending;
        pending = null;
        const frame = new DataView(data).getUint32(0);
        let picture = null;
        try {
          picture = await createImageBitmap(new Blob([new Uint8Array(data, 4)], {type: "image/png"}),
                                            {colorSpaceConversion: "none", premultiplyAlpha: "none"});
        }
        catch (e) { continue; }
        if (content === "app") { pen.drawImage(picture, 0, 0, canvas.width, canvas.height); }
        picture.close();
        await new Promise(function (done) { requestAnimationFrame(function () { done(); }); });
        const at = performance.timeOrigin + performance.now();
        window.edkPaints.push([frame, at]);
        if (window.edkPaints.length > 1000) window.edkPaints.shift();
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({type: "painted", frame: frame, at: at}));
      }
      drawing = false;
    }

    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      socket.binaryType = "arraybuffer";
      socket.onopen = function () { reported = ""; reportViewport(); };
      socket.onmessage = function (event) {
        if (typeof event.data === "string") {
          let message = null;
          try { message = JSON.parse(event.data); } catch (e) { return; }
          content = message.type;
          if (content !== "app") black();
          wait.style.display = content === "placeholder" ? "flex" : "none";
          return;
        }
        pending = event.data;
        if (!drawing) drawNewest();
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
