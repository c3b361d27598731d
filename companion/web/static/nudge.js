// What the phone does for its player beyond showing the seat: a buzz or a chime once when
// the seat becomes the one to act, and keeping the screen awake while the page is open.
// Nothing is fetched: the chime is a tone made here (Web Audio), the wake keeper's video
// is drawn here (a canvas stream). Browsers allow sound and video only after a tap, so
// both are started by the player's first tap on the page.
"use strict";
window.Nudge = (function () {
  const KEY = "tc.nudge";                 // "off" when the player turned the buzz/chime off
  let audio = null, wasActor = null, keeper = null;

  function enabled() {
    try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }
  function setEnabled(on) {
    try { if (on) localStorage.removeItem(KEY); else localStorage.setItem(KEY, "off"); } catch (e) { /* private mode: this page only */ }
  }

  function chime() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended" && audio.resume) audio.resume();
    const t = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(880, t);             // two short notes, a fifth apart
    osc.frequency.setValueAtTime(1320, t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.3, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain); gain.connect(audio.destination);
    osc.start(t); osc.stop(t + 0.32);
  }

  // Called with every state the page shows: the seat must act now or not. Only the moment
  // it becomes the one to act counts (not the page's first state: its player is looking).
  function seatActs(actor) {
    const became = wasActor === false && actor;
    wasActor = actor;
    if (!became || !enabled()) return false;
    if (navigator.vibrate) navigator.vibrate(200);   // phones that can buzz, buzz
    else chime();                                     // others (iPhones, desktops) chime
    return true;
  }

  function say(words, ok) {
    const el = document.getElementById("awake");
    if (el) { el.textContent = words; el.className = ok ? "muted" : "off"; }
  }

  // The Wake Lock API where the page may use it (HTTPS); over plain HTTP on the table's
  // network, a muted, looping, inline video playing keeps the screen on (NoSleep.js's way).
  async function keepAwake() {
    if (keeper) return;
    keeper = "starting";
    if (window.isSecureContext && navigator.wakeLock && navigator.wakeLock.request) {
      try {
        keeper = await navigator.wakeLock.request("screen");
        document.addEventListener("visibilitychange", async () => {
          if (document.visibilityState === "visible") { try { keeper = await navigator.wakeLock.request("screen"); } catch (e) { /* kept trying next time */ } }
        });
        say("The screen stays on while this page is open.", true);
        return;
      } catch (e) { /* refused (battery saver): try the video */ }
    }
    const canvas = document.createElement("canvas");
    if (!canvas.captureStream) { keeper = "none"; say("This phone cannot keep its screen on from this page: set a longer screen timeout in its settings.", false); return; }
    canvas.width = canvas.height = 2;
    const g = canvas.getContext("2d"), video = document.createElement("video");
    const paint = () => { g.fillStyle = g.fillStyle === "#000000" ? "#010101" : "#000000"; g.fillRect(0, 0, 2, 2); };
    paint();
    video.className = "awake";
    video.muted = true; video.loop = true; video.playsInline = true;
    video.setAttribute("muted", ""); video.setAttribute("playsinline", ""); video.setAttribute("aria-hidden", "true");
    video.srcObject = canvas.captureStream(1);
    document.body.appendChild(video);
    try {
      await video.play();
      keeper = video;
      setInterval(paint, 15000);      // a frame now and then: the stream stays a live video
      say("The screen stays on while this page is open.", true);
    } catch (e) {
      keeper = "none";
      video.remove();
      say("This phone cannot keep its screen on from this page: set a longer screen timeout in its settings.", false);
    }
  }

  function start() {
    const box = document.getElementById("alert-on");
    if (box) {
      box.checked = enabled();
      box.addEventListener("change", () => setEnabled(box.checked));
    }
    const first = () => {
      document.removeEventListener("pointerdown", first, true);
      document.removeEventListener("click", first, true);
      keepAwake();
      // Browsers start sound only from a tap: the chime's audio is made ready now.
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !audio && !navigator.vibrate) { try { audio = new Ctx(); } catch (e) { /* no sound then */ } }
    };
    document.addEventListener("pointerdown", first, true);
    document.addEventListener("click", first, true);
  }

  return { start, seatActs, enabled };
})();
