"""A Stratus server process and CKWS calls, for the reliability probes: start `stratus serve --dev`
on a free port over a data directory (kept across restarts), call it as a client would, kill it."""
import http.client, json, os, signal, socket, subprocess, tempfile, time
import urllib.error, urllib.parse, urllib.request


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


class Server:
    def __init__(self, binary, data=None, extra=()):
        self.binary, self.extra = binary, list(extra)
        self.data = data or tempfile.mkdtemp(prefix="stratus-reliability-")
        self.port, self.proc = free_port(), None

    def start(self, timeout=60):
        log = open(os.path.join(self.data, "server.log"), "a")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--dev", "--host", "127.0.0.1", "--port", str(self.port), "--data", self.data] + self.extra,
            stdout=log, stderr=subprocess.STDOUT)
        creds = os.path.join(self.data, "dev-credentials.json")
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited; see " + os.path.join(self.data, "server.log"))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                if os.path.exists(creds):
                    self.creds = json.load(open(creds))
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try: self.proc.wait(10)
            except subprocess.TimeoutExpired: self.kill9()

    def account(self, name):
        return next(a for a in self.creds["accounts"] if a["email"].startswith(name + "@"))

    def url(self, database, operation, user=None, api=True):
        query = []
        if api: query.append("ckAPIToken=" + urllib.parse.quote(self.creds["apiToken"], safe=""))
        if user: query.append("ckWebAuthToken=" + urllib.parse.quote(self.account(user)["webAuthToken"], safe=""))
        return (f"http://127.0.0.1:{self.port}/database/1/{self.creds['container']}/development/{database}/{operation}"
                + ("?" + "&".join(query) if query else ""))

    def call(self, database, operation, body=None, user=None, api=True, timeout=30, extensions=None):
        """(status, JSON body); (0, {}) when the connection failed or dropped (nothing was acknowledged).
        `extensions` names what to ask for beyond CKWS's keys (X-Stratus-Extensions), e.g. "serverRecords"."""
        headers = {"Content-Type": "application/json"}
        if extensions: headers["X-Stratus-Extensions"] = extensions
        request = urllib.request.Request(self.url(database, operation, user, api), data=json.dumps(body or {}).encode(),
                                         method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            try: return error.code, json.loads(error.read() or b"{}")
            except ValueError: return error.code, {}
        except (OSError, ValueError, http.client.HTTPException):  # e.g. a body cut short by a kill
            return 0, {}


def record(name, record_type="P", **fields):
    return {"recordName": name, "recordType": record_type, "fields": {k: {"value": v} for k, v in fields.items()}}


def saved(status, body):
    """The names of the records a records/modify answer acknowledges as saved."""
    if status != 200: return []
    return [r["recordName"] for r in body.get("records", []) if "serverErrorCode" not in r]
