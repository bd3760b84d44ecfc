#!/usr/bin/env python3
"""Ground truth for the stub files from the wild: real WireMock's answers.

For every WireMock root below this folder (a folder holding `mappings/`), this script starts real
WireMock 2.35.1 on 127.0.0.1 with `--root-dir` that folder and `--local-response-templating`,
derives requests from each stub (its own request, then near variants), sends them in order, and
writes what WireMock answered to `<root>/wiremock-answers.jsonl`, one JSON object a line.

The first line of each file describes the root:
    {"root": ..., "wiremock": "2.35.1", "loaded": true|false, "error": <startup error or null>,
     "base": "http://127.0.0.1:PORT", "ungenerable": [<stub that no request could be derived for>]}
Every other line is one request and WireMock's answer:
    {"n": 0, "mapping": "mappings/x.json", "stub": 0, "variant": "own|method|header-dropped|host-changed|query-changed|body-changed|body-value-changed",
     "method": "GET", "url": "/path?q=1", "headers": [["Name", "value"], ...], "body": "..." | null,
     "sendable": true|false,
     "expected": {"matched": bool, "failed": true (only when WireMock answered with an error of its own, e.g. a
                  template that fails), "status": 200, "headers": {"Name": ["v"]}, "body": "..." | null,
                  "bodyBase64": "..." | null, "bodySHA256": "...", "bodyLength": n, "templated": bool}}
`expected.headers` holds only the headers the answering stub declares (by name, case-insensitively).

Not run by CI. To regenerate (Java 17+, Python 3):
    pip download --no-deps wiremock            # the wheel carries the jar
    unzip -j wiremock-*.whl wiremock/server/wiremock-standalone-2.35.1.jar
    python3 Tests/Fixtures/Wild/generate-answers.py path/to/wiremock-standalone-2.35.1.jar [root ...]
"""
import base64, hashlib, http.client, json, os, re, socket, subprocess, sys, time, uuid
import warnings
warnings.simplefilter('ignore', DeprecationWarning)
import sre_parse, sre_constants as C

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_TEXT = 64 * 1024

# ---------------------------------------------------------------- lenient JSON (as Jackson reads it)

def strip_comments(text):
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == '\\' and i + 1 < n:
                out.append(text[i + 1]); i += 2; continue
            if c == '"': in_str = False
            i += 1; continue
        if c == '"': in_str = True; out.append(c); i += 1; continue
        if text.startswith('//', i):
            j = text.find('\n', i); i = n if j < 0 else j; continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2); i = n if j < 0 else j + 2; continue
        out.append(c); i += 1
    return ''.join(out)

def read_mapping(path):
    raw = open(path, 'rb').read().decode('utf-8-sig', 'replace')
    text = strip_comments(raw)
    value, _ = json.JSONDecoder().raw_decode(text.lstrip())
    if isinstance(value, dict) and 'mappings' in value and isinstance(value['mappings'], list):
        return value['mappings']
    return [value]

# ---------------------------------------------------------------- strings that satisfy patterns

class Ungenerable(Exception):
    pass

def gen_regex(pattern):
    """A short string the (Java) regex matches in full, or Ungenerable."""
    try:
        tree = sre_parse.parse(pattern)
    except Exception as e:
        raise Ungenerable(f'regex {pattern!r}: {e}')
    s = ''.join(gen_tree(tree))
    try:
        if re.fullmatch(pattern, s, re.S) is None:
            raise Ungenerable(f'regex {pattern!r}: generated {s!r} does not match')
    except re.error as e:
        raise Ungenerable(f'regex {pattern!r}: {e}')
    return s

def pick_char(items, negate):
    allowed = []
    banned = set()
    for op, av in items:
        if op == C.LITERAL:
            (banned.add(chr(av)) if negate else allowed.append(chr(av)))
        elif op == C.RANGE:
            lo, hi = av
            if negate: banned.update(chr(c) for c in range(lo, hi + 1))
            else: allowed.append(chr(lo) if chr(lo).isalnum() or lo > 0x7f else (chr(max(lo, 0x30)) if lo <= 0x30 <= hi else chr(lo)))
        elif op == C.CATEGORY:
            m = {C.CATEGORY_DIGIT: '1', C.CATEGORY_WORD: 'a', C.CATEGORY_SPACE: ' ',
                 C.CATEGORY_NOT_DIGIT: 'a', C.CATEGORY_NOT_WORD: '-', C.CATEGORY_NOT_SPACE: 'a'}
            ch = m.get(av, 'a')
            (banned.add(ch) if negate else allowed.append(ch))
        elif op == C.NEGATE:
            pass
    if negate:
        for ch in 'abcxyz1234567890ABC-_':
            if ch not in banned: return ch
        raise Ungenerable('character class')
    if not allowed: raise Ungenerable('character class')
    return allowed[0]

def gen_tree(tree):
    out = []
    for op, av in tree:
        if op == C.LITERAL: out.append(chr(av))
        elif op == C.NOT_LITERAL: out.append('a' if chr(av) != 'a' else 'b')
        elif op == C.ANY: out.append('a')
        elif op == C.IN:
            negate = any(o == C.NEGATE for o, _ in av)
            out.append(pick_char(av, negate))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            lo, hi, sub = av
            count = lo if lo > 0 else (1 if hi != 0 and _is_wide(sub) else 0)
            for _ in range(count): out.extend(gen_tree(sub))
        elif op == C.SUBPATTERN:
            out.extend(gen_tree(av[-1]))
        elif op == C.BRANCH:
            out.extend(gen_tree(av[1][0]))
        elif op == C.AT: pass
        elif op == C.GROUPREF: raise Ungenerable('back reference')
        else: raise Ungenerable(f'regex construct {op}')
    return out

def _is_wide(sub):
    # `.*` and `[^/]*` get one character, so the generated path has a segment there.
    return len(sub) == 1 and sub[0][0] in (C.ANY, C.IN)

OPERATORS = ['equalTo', 'contains', 'matches', 'absent', 'doesNotMatch', 'doesNotContain', 'anything',
             'equalToJson', 'matchesJsonPath', 'equalToXml', 'matchesXPath', 'binaryEqualTo', 'and', 'or', 'not',
             'hasExactly', 'includes', 'before', 'after', 'equalToDateTime', 'matchesJsonSchema']

def first_operator(pattern):
    """WireMock 2.35.1 reads the first operator key of a pattern object and ignores any other."""
    for k in pattern:
        if k in OPERATORS:
            return {k2: v for k2, v in pattern.items() if k2 == k or k2 not in OPERATORS}
    return pattern

def gen_value(pattern):
    """A value satisfying a StringValuePattern object; None means 'leave it out'."""
    if not isinstance(pattern, dict): raise Ungenerable(f'pattern {pattern!r}')
    pattern = first_operator(pattern)
    if 'equalTo' in pattern: return str(pattern['equalTo'])
    if 'contains' in pattern: return str(pattern['contains'])
    if 'matches' in pattern: return gen_regex(pattern['matches'])
    if 'absent' in pattern: return None
    if 'doesNotMatch' in pattern:
        for cand in ('x', 'zzz-not-matching', '0'):
            if not re.fullmatch(pattern['doesNotMatch'], cand): return cand
        raise Ungenerable('doesNotMatch')
    if 'doesNotContain' in pattern: return 'x' if 'x' not in pattern['doesNotContain'] else 'q'
    if 'anything' in pattern: return 'anything'
    if 'equalToJson' in pattern:
        v = pattern['equalToJson']
        return v if isinstance(v, str) else json.dumps(v)
    if 'and' in pattern:
        # the first operand gives a value; the check below keeps it only when WireMock agrees.
        return gen_value(pattern['and'][0])
    if 'or' in pattern: return gen_value(pattern['or'][0])
    if 'hasExactly' in pattern or 'includes' in pattern:
        raise Ungenerable('multi-value operator')
    raise Ungenerable(f'operator {sorted(pattern)}')

def gen_json_path_body(expr):
    """A JSON body for a simple `$.a.b` expression (no filters)."""
    e = expr.strip()
    # `$.a.b[?(@.key == 'v')]` and `$.a[?(@.key =~ /re/)]`: an array under a.b holding {key: v}
    f = re.fullmatch(r"\$((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.?\[\?\(@\.([A-Za-z_][A-Za-z0-9_]*)\s*(==|=~)\s*(?:'([^']*)'|/(.*)/)\)\]", e)
    if f:
        keys = [k for k in f.group(1).split('.') if k]
        value = {f.group(2): f.group(4) if f.group(3) == '==' else gen_regex(f.group(5))}
        if not keys: return value
        value = [value]
        for k in reversed(keys): value = {k: value}
        return value
    # `$.a.b[?(@ in ["v", …])]` (Jayway's `in`): an array under a.b holding the list's first value
    f = in_filter(e)
    if f:
        keys, values = f
        value = [values[0]]
        for k in reversed(keys): value = {k: value}
        return value
    m = re.fullmatch(r"\$((?:\.[A-Za-z_][A-Za-z0-9_]*)+)", e)
    if not m: raise Ungenerable(f'jsonpath {expr!r}')
    keys = m.group(1).strip('.').split('.')
    value = 'x'
    for k in reversed(keys): value = {k: value}
    return value

def in_filter(expr):
    """`$.a.b[?(@ in ["v", …])]` as (["a", "b"], ["v", …]), else None."""
    f = re.fullmatch(r"\$((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\[\?\(@\s+in\s+(\[[^\]]*\])\)\]", expr.strip())
    if not f: return None
    try:
        values = json.loads(f.group(2).replace("'", '"'))
    except ValueError:
        return None
    if not values or not all(isinstance(v, str) for v in values): return None
    return [k for k in f.group(1).split('.') if k], values

def gen_body(patterns):
    if not patterns: return None
    merged = None
    text = None
    for p in patterns:
        p = first_operator(p)
        if 'equalToJson' in p:
            v = p['equalToJson']
            text = v if isinstance(v, str) else json.dumps(v)
        elif 'equalTo' in p or 'contains' in p: text = p.get('equalTo', p.get('contains'))
        elif 'matches' in p: text = gen_regex(p['matches'])
        elif 'equalToXml' in p: text = p['equalToXml']
        elif 'binaryEqualTo' in p: text = base64.b64decode(p['binaryEqualTo']).decode('latin-1')
        elif 'matchesJsonPath' in p:
            expr = p['matchesJsonPath']
            if isinstance(expr, dict):
                inner = {k: v for k, v in expr.items() if k != 'expression'}
                leaf = gen_value(inner)
                if leaf is None: raise Ungenerable('nested matchesJsonPath with absent')
                part = gen_json_path_body(expr['expression'])
                part = set_leaf(part, leaf)
            else:
                part = gen_json_path_body(expr)
            merged = deep_merge(merged or {}, part)
        elif 'absent' in p: pass
        else: raise Ungenerable(f'body operator {sorted(p)}')
    if merged is not None:
        if text is not None: raise Ungenerable('mixed body patterns')
        return json.dumps(merged)
    return text

def set_leaf(value, leaf):
    if isinstance(value, dict) and len(value) == 1:
        k, v = next(iter(value.items()))
        return {k: set_leaf(v, leaf)} if isinstance(v, dict) else {k: leaf}
    raise Ungenerable('nested matchesJsonPath')

def deep_merge(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items(): out[k] = deep_merge(out[k], v) if k in out else v
        return out
    return b

def quote_q(s):
    from urllib.parse import quote
    return quote(s, safe="-_.~!$'()*,;:@/")

def derive(stub):
    """The stub's own request, as (method, url, headers, body)."""
    req = stub.get('request') or {}
    method = req.get('method', 'ANY')
    if method in ('ANY', None): method = 'GET'
    query = []
    for name, pat in (req.get('queryParameters') or {}).items():
        v = gen_value(pat)
        if v is not None: query.append((name, v))
    if 'url' in req:
        url = req['url']
        if query: url += ('&' if '?' in url else '?') + '&'.join(f'{quote_q(k)}={quote_q(v)}' for k, v in query)
    elif 'urlPath' in req:
        url = req['urlPath']
        if query: url += '?' + '&'.join(f'{quote_q(k)}={quote_q(v)}' for k, v in query)
    elif 'urlPathPattern' in req:
        url = gen_regex(req['urlPathPattern'])
        if query: url += '?' + '&'.join(f'{quote_q(k)}={quote_q(v)}' for k, v in query)
    elif 'urlPattern' in req:
        url = gen_regex(req['urlPattern'])
        if query:
            raise Ungenerable('urlPattern with queryParameters')
    elif 'urlPathTemplate' in req:
        raise Ungenerable('urlPathTemplate')
    else:
        url = '/'
    headers = []
    if req.get('host') is not None:
        # WireMock matches `host` against the Host header's host name: send it (the replay makes it the URL's host).
        v = req['host'] if isinstance(req['host'], str) else gen_value(req['host'])
        if v is not None: headers.append(['Host', v])
    for name, pat in (req.get('headers') or {}).items():
        v = gen_value(pat)
        if v is not None: headers.append([name, v])
    cookies = []
    for name, pat in (req.get('cookies') or {}).items():
        v = gen_value(pat)
        if v is not None: cookies.append(f'{name}={v}')
    if cookies: headers.append(['Cookie', '; '.join(cookies)])
    auth = req.get('basicAuth') or req.get('basicAuthCredentials')
    if auth:
        token = base64.b64encode(f"{auth.get('username','')}:{auth.get('password','')}".encode()).decode()
        headers.append(['Authorization', 'Basic ' + token])
    if req.get('formParameters'): raise Ungenerable('formParameters')
    if req.get('multipartPatterns'): raise Ungenerable('multipartPatterns')
    body = gen_body(req.get('bodyPatterns'))
    if body is not None and not any(h[0].lower() == 'content-type' for h in headers):
        stripped = body.lstrip()
        headers.append(['Content-Type', 'application/json' if stripped[:1] in '{[' else ('application/xml' if stripped[:1] == '<' else 'text/plain')])
    return method, url, headers, body

def variants(stub, own):
    method, url, headers, body = own
    req = stub.get('request') or {}
    out = [('own', own)]
    if req.get('method', 'ANY') != 'ANY':
        other = 'POST' if method == 'GET' else 'GET'
        out.append(('method', (other, url, headers, body)))
    declared = [h for h in headers if h[0] in (req.get('headers') or {})]
    if declared:
        drop = declared[0]
        out.append(('header-dropped', (method, url, [h for h in headers if h is not drop], body)))
    # `host`, or a `Host` header (recorded in proxy mode): the same request with another host name.
    by_field = 'host' in req and 'Host' not in (req.get('headers') or {})
    by_header = 'Host' in (req.get('headers') or {}) and 'host' not in req
    hosts = [h for h in headers if h[0] == 'Host' and (by_field or by_header)]
    if hosts:
        out.append(('host-changed', (method, url, [['Host', 'changed.' + h[1]] if h is hosts[0] else h for h in headers], body)))
    if '?' in url:
        path, q = url.split('?', 1)
        pairs = q.split('&')
        k, _, v = pairs[0].partition('=')
        pairs[0] = f'{k}={v}changed'
        out.append(('query-changed', (method, path + '?' + '&'.join(pairs), headers, body)))
    if body is not None:
        changed = body
        try:
            value = json.loads(body)
            if isinstance(value, dict): value['zzChanged'] = True; changed = json.dumps(value)
            elif isinstance(value, list): value.append('zzChanged'); changed = json.dumps(value)
            else: changed = body + 'changed'
        except Exception:
            changed = body + 'changed'
        out.append(('body-changed', (method, url, headers, changed)))
        # A `$.a[?(@ in [...])]` body pattern: the same body with a value the list does not hold.
        for p in req.get('bodyPatterns') or []:
            f = isinstance(p.get('matchesJsonPath'), str) and in_filter(p['matchesJsonPath'])
            if f:
                keys, values = f
                value = json.loads(body)
                target = value
                for k in keys[:-1]: target = target[k]
                target[keys[-1]] = [values[0] + '0']
                out.append(('body-value-changed', (method, url, headers, json.dumps(value))))
    return out

# ---------------------------------------------------------------- WireMock

def free_port(preferred=18181):
    # The same port every run when it is free, so regenerated files differ only where answers do.
    for port in (preferred, 0):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # the previous root's WireMock may be in TIME_WAIT
        try:
            s.bind(('127.0.0.1', port)); return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()

def start(jar, root, port):
    log = open(os.path.join('/tmp', f'wiremock-{port}.log'), 'w')
    proc = subprocess.Popen(['java', '-jar', jar, '--bind-address', '127.0.0.1', '--port', str(port),
                             '--root-dir', root, '--local-response-templating', '--disable-banner',
                             '--no-request-journal'],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            log.close()
            return None, open(log.name).read()
        try:
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
            c.request('GET', '/__admin/mappings'); r = c.getresponse(); r.read(); c.close()
            if r.status == 200: return proc, None
        except OSError:
            time.sleep(0.3)
    proc.kill(); return None, 'timeout'

def startup_error(log, root):
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if 'Exception' in line or 'Error' in line:
            text = ' '.join(l.strip() for l in lines[i:i + 2])
            return text.replace(root + '/', '')
    return log.strip().splitlines()[-1] if log.strip() else 'exited'

def send(port, method, url, headers, body):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    has_host = any(h[0].lower() == 'host' for h in headers)
    c.putrequest(method, url, skip_host=has_host, skip_accept_encoding=True)
    for k, v in headers: c.putheader(k, v)
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

def stub_by_id(port, sid):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    c.request('GET', f'/__admin/mappings/{sid}'); r = c.getresponse(); data = r.read(); c.close()
    return json.loads(data) if r.status == 200 else None

def run_root(jar, root):
    rel = os.path.relpath(root, HERE)
    files = []
    for d, _, names in os.walk(os.path.join(root, 'mappings')):
        files += [os.path.join(d, n) for n in names if n.endswith('.json')]
    files.sort()
    port = free_port()
    proc, log = start(jar, root, port)
    head = {'root': rel, 'wiremock': '2.35.1', 'loaded': proc is not None,
            'error': None if proc else startup_error(log, root), 'base': f'http://127.0.0.1:{port}',
            'ungenerable': []}
    lines = []
    if proc:
        try:
            n = 0
            for f in files:
                mrel = os.path.relpath(f, root)
                try:
                    stubs = read_mapping(f)
                except Exception as e:
                    head['ungenerable'].append({'mapping': mrel, 'stub': None, 'reason': f'unreadable: {e}'}); continue
                for i, stub in enumerate(stubs):
                    try:
                        own = derive(stub)
                    except Ungenerable as e:
                        head['ungenerable'].append({'mapping': mrel, 'stub': i, 'reason': str(e)}); continue
                    for kind, (method, url, headers, body) in variants(stub, own):
                        sendable = not re.search(r'[\s"<>\\^`{|}]', url) and url.startswith('/')
                        entry = {'n': n, 'mapping': mrel, 'stub': i, 'variant': kind, 'method': method,
                                 'url': url, 'headers': headers, 'body': body, 'sendable': sendable}
                        n += 1
                        if sendable:
                            try:
                                status, hdrs, payload = send(port, method, url, headers, body)
                                entry['expected'] = answer(port, status, hdrs, payload)
                            except Exception as e:
                                entry['expected'] = {'error': f'{type(e).__name__}: {e}'}
                        lines.append(entry)
        finally:
            proc.terminate(); proc.wait(10)
    with open(os.path.join(root, 'wiremock-answers.jsonl'), 'w') as out:
        out.write(json.dumps(head, ensure_ascii=False) + '\n')
        for e in lines: out.write(json.dumps(e, ensure_ascii=False) + '\n')
    sent = sum(1 for e in lines if e['sendable'])
    print(f'{rel}: loaded={head["loaded"]} requests={len(lines)} sent={sent} ungenerable={len(head["ungenerable"])}'
          + ('' if proc else f' error={head["error"]}'), flush=True)

def answer(port, status, hdrs, payload):
    sid = (hdrs.get('matched-stub-id') or [None])[0]
    matched = sid is not None
    # Not matched: WireMock's 404 "Request was not matched". Neither matched nor that: WireMock failed
    # while answering (a template error, a proxy target that is down), and says so in the body.
    unmatched = not matched and status == 404 and b'Request was not matched' in payload
    exp = {'matched': matched, 'status': status}
    if not matched and not unmatched:
        exp['failed'] = True
    declared = {}
    templated = False
    if matched:
        stub = stub_by_id(port, sid) or {}
        resp = stub.get('response') or {}
        templated = 'response-template' in (resp.get('transformers') or [])
        for name, value in (resp.get('headers') or {}).items():
            got = hdrs.get(name.lower(), [])
            if name.lower() == 'vary':
                # Jetty's gzip handler appends `Accept-Encoding, User-Agent` to Vary: transport, not the stub.
                mine = {v.strip().lower() for v in (value if isinstance(value, list) else [value]) for v in str(v).split(',')}
                kept = []
                for line in got:
                    tokens = [t.strip() for t in line.split(',')]
                    left = [t for t in tokens if t.lower() in mine or t.lower() not in ('accept-encoding', 'user-agent')]
                    if left == tokens: kept.append(line)
                    elif left: kept.append(', '.join(left))
                got = kept
            declared[name] = got
    exp['headers'] = declared
    exp['templated'] = templated
    exp['bodyLength'] = len(payload)
    exp['bodySHA256'] = hashlib.sha256(payload).hexdigest()
    if unmatched:
        exp['body'] = None
    else:
        try:
            text = payload.decode('utf-8')
            exp['body'] = text if len(payload) <= MAX_TEXT else None
        except UnicodeDecodeError:
            exp['body'] = None
            if len(payload) <= MAX_TEXT: exp['bodyBase64'] = base64.b64encode(payload).decode()
    return exp

def main():
    jar = sys.argv[1]
    roots = sys.argv[2:]
    if not roots:
        for d, dirs, _ in os.walk(HERE):
            if 'mappings' in dirs:
                roots.append(d); dirs[:] = []
    for r in sorted(roots): run_root(jar, os.path.abspath(r))

if __name__ == '__main__':
    main()
