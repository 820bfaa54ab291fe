#!/usr/bin/env python3
"""ptydrive.py: run an agent's terminal UI under a pseudo-terminal, type a
prompt, wait for the answer, quit. Used by scripts/gen-real-fixtures-3.sh
for agents whose resume is interactive only (the Cline CLI's --id).

usage: ptydrive.py --log SCREEN --mocklog MOCK --prompt P [--ready TEXT]
                   [--events N] [--quit SEQ]... [--confirm TEXT]
                   [--confirm-key KEY] [--accept-first TEXT] -- cmd...

Waits until the screen shows --ready (the prompt box) and has been quiet
for --settle seconds, types P and Enter, waits until the mock model's log
(fixtures/cmd/mockmodel -log) holds N new final_text events (the model's
answer after a tool result) and the screen is quiet again, then sends the
quit sequences (default Ctrl+C twice) and waits for the process to exit
(SIGKILL after --grace seconds). With --confirm, each time the screen
shows TEXT after the prompt (a tool confirmation dialog, such as
Gemini CLI's "Allow once"), Enter is pressed to accept its first choice
(--confirm-key sends another key instead, such as a choice's number).
With --accept-first, a dialog showing TEXT before the prompt box (a
folder-trust question) is accepted with Enter before the prompt is typed.
Prints the exit code on stdout."""
import argparse, os, pty, select, signal, struct, fcntl, termios, time, sys, json

ap = argparse.ArgumentParser()
ap.add_argument("--log", required=True)
ap.add_argument("--mocklog", required=True)
ap.add_argument("--prompt", required=True)
ap.add_argument("--settle", type=float, default=3.0)
ap.add_argument("--ready", default="", help="text the screen shows once the prompt box is up")
ap.add_argument("--timeout", type=float, default=180)
ap.add_argument("--grace", type=float, default=20)
ap.add_argument("--quit", action="append", default=[])
ap.add_argument("--events", type=int, default=1, help="final_text events to wait for")
ap.add_argument("--confirm", default="", help="text of a confirmation dialog to accept with Enter each time it shows")
ap.add_argument("--accept-first", default="", help="text of a dialog some launches show before the prompt box (Kimi Code's 'Trust this folder?'), accepted once with Enter")
ap.add_argument("--confirm-key", default="\r", help="the key sent to the --confirm dialog instead of Enter (a choice's number, such as 3 for Kimi Code's Reject)")
ap.add_argument("cmd", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
start_lines = sum(1 for _ in open(a.mocklog))

pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
out = open(a.log, "wb")
last = time.time()
def pump(t):
    global last
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                b = os.read(fd, 65536)
            except OSError:
                return False
            if not b:
                return False
            out.write(b); out.flush(); last = time.time()
            seen.extend(b)
            if typed:
                after.extend(b)
    return True
typed = False
after = bytearray()
seen = bytearray()
def confirm():
    # the dialog is drawn again and again while it waits: press Enter once
    # when it shows, then look only at what the screen draws after that
    if a.confirm and a.confirm.encode() in after:
        quiet(1.0, 10)
        os.write(fd, a.confirm_key.encode())
        pump(2.0)
        del after[:]
def quiet(secs, limit):
    end = time.time() + limit
    while time.time() < end:
        if not pump(0.2):
            return False
        if time.time() - last >= secs:
            return True
    return True
def mock_finals():
    n = 0
    with open(a.mocklog) as f:
        for i, l in enumerate(f):
            if i < start_lines: continue
            try: e = json.loads(l)
            except ValueError: continue
            if e.get("kind") == "event" and e.get("action") == "final_text": n += 1
    return n
t0 = time.time()
while a.ready and time.time() - t0 < 90:
    if not pump(0.2):
        break
    if a.accept_first and a.accept_first.encode() in seen:
        quiet(1.0, 10)
        os.write(fd, b"\r")
        a.accept_first = ""
        del seen[:]
        continue
    # ready once the prompt box shows and the screen has been still for 2 s
    # (a dialog drawn over it would have shown by then)
    if a.ready.encode() in seen and time.time() - last >= 2:
        break
quiet(a.settle, 60)
for ch in a.prompt:
    os.write(fd, ch.encode()); pump(0.01)
pump(0.5)
os.write(fd, b"\r")
typed = True
while time.time() - t0 < a.timeout and mock_finals() < a.events:
    if not pump(0.5): break
    confirm()
quiet(a.settle, 60)
for q in (a.quit or ["\x03", "\x03"]):
    try: os.write(fd, q.encode().decode("unicode_escape").encode())
    except OSError: break
    pump(1.0)
end = time.time() + a.grace
status = None
while time.time() < end:
    pump(0.2)
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        status = st; break
if status is None:
    os.kill(pid, signal.SIGKILL); _, status = os.waitpid(pid, 0)
    print("killed after grace", file=sys.stderr)
rc = os.waitstatus_to_exitcode(status)
print(rc)
sys.exit(0)
