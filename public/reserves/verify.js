/* global TextEncoder, crypto, document */
/**
 * Checks a Coffer proof of reserves (the JSON the app downloads) with nothing but the browser's
 * SHA-256: no app code, no network, so it works offline and anyone can read what it does.
 *
 * leaf = SHA-256("leaf|" + nonce + "|" + usdt + "|" + rab)
 * node = SHA-256("node|" + left.hash + "|" + right.hash + "|" + usdt + "|" + rab), the sums the
 * children's; `side` says where the sibling stands. Amounts are integers of minor units (6 decimals).
 */
const encoder = new TextEncoder();

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const units = (value) => {
  if (typeof value !== 'string' || !/^\d{1,30}$/.test(value)) throw new Error(`not an amount: ${value}`);
  return BigInt(value);
};

/** Returns {ok, steps, reason}: each step is the running node from the leaf up to the root. */
export async function verifyProof(proof) {
  try {
    const leafUsdt = units(proof.leaf.usdt);
    const leafRab = units(proof.leaf.rab);
    let running = {
      hash: await sha256Hex(`leaf|${proof.leaf.nonce}|${leafUsdt}|${leafRab}`),
      usdt: leafUsdt,
      rab: leafRab,
    };
    const steps = [running];
    for (const step of proof.path) {
      const sibling = { hash: String(step.hash), usdt: units(step.usdt), rab: units(step.rab) };
      const [left, right] = step.side === 'left' ? [sibling, running] : [running, sibling];
      if (step.side !== 'left' && step.side !== 'right') throw new Error(`a step's side is ${step.side}`);
      const usdt = left.usdt + right.usdt;
      const rab = left.rab + right.rab;
      running = { hash: await sha256Hex(`node|${left.hash}|${right.hash}|${usdt}|${rab}`), usdt, rab };
      steps.push(running);
    }
    const root = { hash: String(proof.root.hash), usdt: units(proof.root.usdt), rab: units(proof.root.rab) };
    const ok = running.hash === root.hash && running.usdt === root.usdt && running.rab === root.rab;
    return { ok, steps, reason: ok ? null : 'the path does not reach the published root' };
  } catch (error) {
    return { ok: false, steps: [], reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Minor units (6 decimals) as a decimal amount. */
export function shownAmount(value) {
  const text = value.toString().padStart(7, '0');
  const whole = text.slice(0, -6);
  const fraction = text.slice(-6).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

function show(result, proof) {
  const out = document.getElementById('result');
  const steps = document.getElementById('steps');
  out.textContent = result.ok
    ? `Verified: a balance of ${shownAmount(BigInt(proof.leaf.usdt))} USDT and ${shownAmount(BigInt(proof.leaf.rab))} RAB is included in the snapshot of ${proof.at ?? 'an unknown time'}, whose root owes ${shownAmount(BigInt(proof.root.usdt))} USDT in total.`
    : `Not verified: ${result.reason}`;
  out.className = result.ok ? 'ok' : 'bad';
  steps.replaceChildren(
    ...result.steps.map((node, index) => {
      const item = document.createElement('li');
      item.textContent = `${index === 0 ? 'leaf' : `level ${index}`}: ${node.hash} (${shownAmount(node.usdt)} USDT, ${shownAmount(node.rab)} RAB)`;
      return item;
    }),
  );
}

if (typeof document !== 'undefined') {
  const input = document.getElementById('proof-file');
  input?.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    let proof;
    try {
      proof = JSON.parse(await file.text());
    } catch {
      show({ ok: false, steps: [], reason: 'the file is not JSON' }, {});
      return;
    }
    show(await verifyProof(proof), proof);
  });
}
