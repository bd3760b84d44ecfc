#!/usr/bin/env python3
"""Ground truth for response templating: what real WireMock answers for each case of cases.json.

For every case of `cases.json` (next to this script) it builds one stub, registers it with real WireMock
2.35.1 (started once per templating mode on 127.0.0.1), sends the case's request and writes what WireMock
answered to `wiremock-answers.jsonl`, one JSON object a line, in the order of cases.json.

A case (see README.md):
    {"name": "area/what", "template": "<response body>" (optional), "headers": {"Name": "<template>" | [..]},
     "status": 200 (optional; any JSON value, put as is), "transformerParameters": {...} (optional),
     "transformers": [...] | null (optional; default ["response-template"], null leaves the key out),
     "mode": "local" | "global" (optional; default "local": the WireMock started with
             --local-response-templating; "global": the one started with --global-response-templating),
     "request": {"method": "GET", "url": "/", "headers": [[name, value], ...], "body": null},
     "stub": {"request": {...}, "response": {...}} (optional; merged over the generated stub, e.g. jsonBody,
             bodyFileName, urlPathTemplate),
     "files": {"path/under/__files": "contents"} (optional),
     "volatile": "<regex>" (optional; the body depends on the clock or on chance: a test checks the regex,
                 a full match of the body, instead of the bytes),
     "note": "...", "wiremock3": {...} (optional, hand-written: what WireMock 3.x documents or its tests assert,
                 for cases where 3.x differs from 2.35.1 or 2.35.1 lacks the feature)}

The generated stub is
    {"id": <uuid5 of the name>, "request": {"method": "ANY", "urlPattern": ".*",
     "headers": {"X-Case": {"equalTo": <name>}}}, "response": {"status": 200, "body": <template>,
     "headers": <headers>, "transformers": ["response-template"], "transformerParameters": ...}}
with `stub` merged over it (dicts merged key by key, other values replaced; a `null` removes the key).
Stubs are posted to the admin API (`POST /__admin/mappings`, the same JSON reader as mapping files), so a
stub WireMock rejects is recorded as such and the others still run; files go to the root's `__files/`.

WireMock runs with -Duser.timezone=UTC -Duser.language=en -Duser.country=US: the JVM's default zone and
locale reach date formats without a timezone and numberFormat.

Each request is sent as given plus `X-Case: <name>` and, unless the case sets one, `Host: localhost:8080`
(so request.host/port/baseUrl do not depend on the port WireMock listens on); a body gets Content-Length.

Each line of wiremock-answers.jsonl:
    {"name": ..., "mode": "local"|"global",
     "request": {"method", "url", "headers": [[n, v], ...] (exactly as sent, X-Case and Host included), "body"},
     "status": 200,
     "headers": {"Name": ["value", ...]}   only the headers the stub declares (looked up case-insensitively;
                           empty when WireMock answered with an error of its own),
     "body": "exact text" | "bodyBase64": "..." (when the body is not UTF-8),
     "error": "..."        only when WireMock answered with an error of its own (a template that does not
                           parse, an unknown helper, a helper that throws): status 500 and the exception's
                           message, first line, `inline@1a2b3c` ids replaced by `inline`; then
     "errorDetail": [...]  the message's other lines (the template excerpt and the caret under the column),
     "errorKind": "parse" (the template does not parse: found/expected), "unknown-helper" (a helper with
                  arguments that is not registered), "partial" (a {{> partial}} not found), "render" (a helper
                  threw while rendering: a Java exception), "transform" (outside Handlebars: WireMock's own
                  split of the template, a missing body file),
     "loadError": "..."    when the admin API refused the stub: its status and the first line of its answer
                           (then no request is sent),
     "volatile": true, "regex": "...", "regexMatched": true|false, "clockBefore": ms, "clockAfter": ms
                           for volatile cases: the body is one sample; the clock (ms since the epoch) read just
                           before the request was sent and just after the answer came,
     "wiremock3": {...}    copied from the case when present}

Not run by CI. To regenerate (Java 17+, Python 3):
    pip download --no-deps wiremock            # the wheel carries the jar
    unzip -j wiremock-*.whl wiremock/server/wiremock-standalone-2.35.1.jar
    python3 Tests/Fixtures/Templates/generate-answers.py path/to/wiremock-standalone-2.35.1.jar [--keep]
"""
import base64, html, http.client, json, os, re, shutil, socket, subprocess, sys, tempfile, time, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
NAMESPACE = uuid.UUID('6f1c1a52-3d0e-4a8e-9a51-7e0f3e1d1717')

def free_port(preferred):
    for port in (preferred, 0):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(('127.0.0.1', port)); return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()

def start(jar, root, port, mode):
    log = open(os.path.join(root, f'wiremock-{mode}.log'), 'w')
    # The JVM's default time zone and locale reach the output (SimpleDateFormat, numberFormat): pin them.
    proc = subprocess.Popen(['java', '-Duser.timezone=UTC', '-Duser.language=en', '-Duser.country=US', '-jar', jar, '--bind-address', '127.0.0.1', '--port', str(port),
                             '--root-dir', root, f'--{mode}-response-templating', '--disable-banner',
                             '--no-request-journal'],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 90
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f'WireMock ({mode}) exited:\n' + open(log.name).read())
        try:
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
            c.request('GET', '/__admin/mappings'); r = c.getresponse(); r.read(); c.close()
            if r.status == 200: return proc
        except OSError:
            time.sleep(0.3)
    proc.kill(); raise SystemExit('WireMock did not start')

def merge(base, extra):
    out = dict(base)
    for k, v in extra.items():
        if v is None: out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict): out[k] = merge(out[k], v)
        else: out[k] = v
    return out

def build_stub(case):
    resp = {'status': case.get('status', 200)}
    if 'template' in case: resp['body'] = case['template']
    if 'headers' in case: resp['headers'] = case['headers']
    transformers = case.get('transformers', ['response-template'])
    if case.get('mode', 'local') == 'global' and 'transformers' not in case: transformers = None
    if transformers is not None: resp['transformers'] = transformers
    if 'transformerParameters' in case: resp['transformerParameters'] = case['transformerParameters']
    stub = {'id': str(uuid.uuid5(NAMESPACE, case['name'])),
            'request': {'method': 'ANY', 'urlPattern': '.*', 'headers': {'X-Case': {'equalTo': case['name']}}},
            'response': resp}
    return merge(stub, case.get('stub', {}))

def admin_post(port, stub):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    data = json.dumps(stub).encode()
    c.request('POST', '/__admin/mappings', body=data, headers={'Content-Type': 'application/json'})
    r = c.getresponse(); payload = r.read().decode('utf-8', 'replace'); c.close()
    return r.status, payload

def send(port, method, url, headers, body):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    c.putrequest(method, url, skip_host=True, skip_accept_encoding=True)
    for k, v in headers: c.putheader(k, v.encode('utf-8'))   # header values as UTF-8 bytes
    data = body.encode('utf-8') if body is not None else None
    if data is not None: c.putheader('Content-Length', str(len(data)))
    c.endheaders()
    if data: c.send(data)
    r = c.getresponse()
    payload = r.read()
    hdrs = {}
    for k, v in r.getheaders(): hdrs.setdefault(k.lower(), []).append(v)
    c.close()
    return r.status, hdrs, payload

def error_kind(err):
    if 'could not find helper' in err: return 'unknown-helper'
    if re.search(r"found: '.*'", err) or 'expected:' in err: return 'parse'
    if 'partial' in err: return 'partial'
    if 'HandlebarsException' in err: return 'render'
    return 'transform'

def load_error(text):
    """The admin API's refusal: `{"errors": [{"title": ..., "detail": ...}]}`, as "title: detail" (first line)."""
    try:
        e = json.loads(text)['errors'][0]
        msg = e.get('title', '') + (': ' + e['detail'] if e.get('detail') else '')
    except Exception:
        msg = text
    return msg.strip().splitlines()[0] if msg.strip() else ''

def error_of(payload, root):
    """WireMock's (Jetty's) 500 page: the exception message from <title>, de-HTML'd, ids removed."""
    text = payload.decode('utf-8', 'replace')
    m = re.search(r'<title>Error \d+ (.*?)</title>', text, re.S)
    if not m: return None, None
    msg = html.unescape(m.group(1)).replace(root + '/', '<root>/')
    msg = re.sub(r'inline@[0-9a-f]+', 'inline', msg)
    msg = msg.replace('wiremock.com.google.common.util.concurrent.UncheckedExecutionException: ', '')
    msg = re.sub(r'\bwiremock\.(com|org|net|javax)\.', r'\1.', msg)
    lines = msg.split('\n')
    return lines[0].rstrip(), [l.rstrip() for l in lines[1:] if l.strip()]

def run(jar, cases, keep):
    root = tempfile.mkdtemp(prefix='wm-templates-')
    os.makedirs(os.path.join(root, 'mappings')); os.makedirs(os.path.join(root, '__files'))
    for case in cases:
        for rel, content in (case.get('files') or {}).items():
            path = os.path.join(root, '__files', rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f: f.write(content)
    modes = sorted({c.get('mode', 'local') for c in cases})
    procs, ports = {}, {}
    out = []
    try:
        for i, mode in enumerate(modes):
            ports[mode] = free_port(18480 + i)
            procs[mode] = start(jar, root, ports[mode], mode)
        for case in cases:
            mode = case.get('mode', 'local')
            port = ports[mode]
            stub = build_stub(case)
            req = case.get('request', {})
            method = req.get('method', 'GET')
            url = req.get('url', '/')
            headers = [list(h) for h in req.get('headers', [])]
            if not any(h[0].lower() == 'host' for h in headers): headers.append(['Host', 'localhost:8080'])
            headers.append(['X-Case', case['name']])
            body = req.get('body')
            line = {'name': case['name'], 'mode': mode,
                    'request': {'method': method, 'url': url, 'headers': headers, 'body': body}}
            st, text = admin_post(port, stub)
            if st not in (200, 201):
                line['loadError'] = f'{st} {load_error(text)}'
            else:
                before = time.time()
                status, hdrs, payload = send(port, method, url, headers, body)
                after = time.time()
                line['status'] = status
                declared = {}
                for name in ((stub.get('response') or {}).get('headers') or {}):
                    declared[name] = hdrs.get(name.lower(), [])
                line['headers'] = declared
                err, detail = (error_of(payload, root) if status == 500 and 'matched-stub-id' not in hdrs else (None, None))
                if err is not None:
                    line['headers'] = {}   # Jetty's error page, not the stub's headers
                    line['error'] = err
                    line['errorKind'] = error_kind(err)
                    line['errorDetail'] = detail
                else:
                    try: line['body'] = payload.decode('utf-8')
                    except UnicodeDecodeError: line['bodyBase64'] = base64.b64encode(payload).decode()
                    if 'matched-stub-id' not in hdrs:
                        line['unmatched'] = True
                if 'volatile' in case:
                    line['volatile'] = True
                    line['regex'] = case['volatile']
                    line['regexMatched'] = bool(re.fullmatch(case['volatile'], line.get('body') or '', re.S))
                    # The clock around the request (ms since the epoch): a test that fixes its clock at
                    # `clockBefore` expects the sample when both fall in the same unit of the format.
                    line['clockBefore'] = int(before * 1000); line['clockAfter'] = int(after * 1000)
            if 'wiremock3' in case: line['wiremock3'] = case['wiremock3']
            out.append(line)
    finally:
        for p in procs.values():
            p.terminate()
            try: p.wait(15)
            except subprocess.TimeoutExpired: p.kill()
        if keep: print('kept', root)
        else: shutil.rmtree(root, ignore_errors=True)
    return out

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    keep = '--keep' in sys.argv
    jar = args[0]
    cases = json.load(open(os.path.join(HERE, 'cases.json'), encoding='utf-8'))
    names = [c['name'] for c in cases]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes: raise SystemExit(f'duplicate case names: {sorted(dupes)}')
    lines = run(jar, cases, keep)
    with open(os.path.join(HERE, 'wiremock-answers.jsonl'), 'w', encoding='utf-8') as f:
        for l in lines: f.write(json.dumps(l, ensure_ascii=False) + '\n')
    errs = sum(1 for l in lines if 'error' in l); loads = sum(1 for l in lines if 'loadError' in l)
    bad = [l['name'] for l in lines if l.get('volatile') and not l.get('regexMatched')]
    print(f'{len(lines)} cases: {errs} template errors, {loads} stubs refused; volatile regex misses: {bad}')

if __name__ == '__main__':
    main()
