// One JSON-RPC request over stateless Streamable HTTP, for the token
// benchmarks (count.mjs, plans2.mjs): rpcClient(base) returns
// rpc(path, method, params), which answers the result or throws the error.

export function rpcClient(base) {
  let id = 0;
  return async function rpc(path, method, params) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const msg = await res.json();
    if (msg.error) throw new Error(`${method}: ${JSON.stringify(msg.error)}`);
    return msg.result;
  };
}
