import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRef } from '@atproto/dev-env';
import { Secp256k1Keypair } from '@atproto/crypto';
import { atprotoNetworkSkipReason, updatePlcDocument } from '../../../apps/server/src/test/atproto-network';
import { freePort } from '../../../apps/server/src/test/free-port';
import { runScript } from '../../../apps/server/src/test/cli-process';
import type { LedgerLine } from '@manaboard/contract/ledger';
import { buildLedgerLines, encodeLedger, type WorldMember } from './test/ledger-builder';
import { seedHonestWeek, startVerifierWorld, type VerifierWorld } from './test/network-world';
import { pdsAt, startPlcProxy, startSilentServer } from './test/plc-proxy';
import { repositoryCap } from './author-repositories';
import { renderReport, type Report } from './report';
import { verifyLedger, type VerifyOptions } from './verify';
import { TAMPER_CASES, type TamperCase } from '../dev/ledger-tamper';
import { startTamperProxy } from '../dev/tamper-proxy';

const reason = atprotoNetworkSkipReason();

describe.skipIf(reason)('verifying a week against a real local AT Protocol network', () => {
  let w: VerifierWorld;
  let members: WorldMember[];
  let p1: RecordRef;
  const run = (options: Partial<VerifyOptions> = {}) =>
    verifyLedger({
      origin: w.origin.url,
      plcUrl: w.net.plcUrl,
      // The local network's handles (*.test) are in no DNS: its PDS resolves them.
      handleResolver: w.net.pdsUrl,
      officialDomain: 'test',
      http: { timeoutMs: 5_000, retries: 1 },
      ...options,
    });
  const lines = () => buildLedgerLines({ members });
  const records = (r: Report) => ({ ok: r.records?.ok, ...r.records?.counts });

  beforeAll(async () => {
    w = await startVerifierWorld();
    ({ members, p1 } = await seedHonestWeek(w));
  }, 180_000);

  afterAll(async () => {
    await w?.close();
  });

  it('names a changed weight and an altered total', async () => {
    const weight = structuredClone(lines());
    (weight[0] as Extract<LedgerLine, { type: 'header' }>).rules[0]!.rules.weights.like = 5;
    await w.serve(encodeLedger(weight));
    let report = await run();
    expect(report.exitCode).toBe(1);
    expect(report.findings.lines.examples[0]?.message).toBe(
      'rules version 1: its hash is not that of its rules',
    );
    expect(report.members.differences.map((d) => d.handle)).toEqual(['alice.test']);

    const total = structuredClone(lines());
    (total[1] as Extract<LedgerLine, { type: 'member' }>).mana += 7;
    await w.serve(encodeLedger(total));
    report = await run();
    expect(report.members.differences[0]).toMatchObject({
      handle: 'alice.test',
      ledger: report.members.differences[0]!.recomputed + 7,
    });
    expect(renderReport(report)).toMatch(/member @alice\.test .*: ledger \d+ Mana, recomputed \d+/);
  });

  it('names a ledger whose hash differs from the published one, or from the index', async () => {
    const honest = encodeLedger(lines());
    const other = encodeLedger(buildLedgerLines({ members: members.slice(0, 1) }));
    await w.serve(other, { publish: honest });
    let report = await run();
    expect(report.exitCode).toBe(1);
    expect(report.publication).toMatchObject({ status: 'failed' });
    expect(renderReport(report)).toMatch(
      /published\s+DIFFERS: .*the post names sha256:\w+, the ledger's bytes hash to sha256:/,
    );

    await w.serve(other, { indexSha: `sha256:${'0'.repeat(64)}` });
    report = await run();
    expect(report.hash.matches).toBe(false);
    expect(renderReport(report)).toContain(`hash         DIFFERS: the index says sha256:${'0'.repeat(64)}`);
  });

  it('gives a clear line for a non-canonical line, a truncated ledger and an index that is not JSON', async () => {
    const text = encodeLedger(lines());
    await w.serve(text.replace('{"author":', '{ "author":'));
    let report = await run();
    expect(report.findings.format.examples[0]).toMatchObject({ line: 2, message: 'is not canonical JSON' });

    await w.serve(text.slice(0, text.length - 20));
    report = await run();
    expect(report.findings.format.examples.map((f) => f.message)).toEqual([
      'the last line has no final newline (the file may be truncated)',
      'is not JSON',
      'the ledger ends without its end line (truncated?)',
    ]);
    expect(report.exitCode).toBe(1);

    w.state.index = '<html>not an index</html>';
    report = await run();
    expect(report.problems).toEqual([`the ledger index (${w.origin.url}/api/ledger) is not JSON`]);
    expect(report.exitCode).toBe(1);
  });

  // Each record check in both modes: its own proof (getRecord), and its author's whole repository (getRepo, which
  // the threshold 0 asks for however few records an author has). The outcomes and their sentences are the same.
  describe.each([
    { mode: 'per record', repoThreshold: Infinity },
    { mode: 'from repositories', repoThreshold: 0 },
  ])('records checked $mode', ({ repoThreshold }) => {
    const check = (options: Partial<VerifyOptions> = {}) => run({ repoThreshold, ...options });
    const byRepository = repoThreshold === 0;
    /** The records the repositories proved, and the repositories fetched (per record: none). */
    const proofs = (r: Report) => [r.records?.proofs.records, r.records?.proofs.repositories];

    it('verifies an honest week in full: hash, signed publication, every record, every member', async () => {
      await w.serve(encodeLedger(lines()));
      const report = await check();
      expect(renderReport(report)).toContain('CONSISTENT (exit 0)');
      expect(report.exitCode).toBe(0);
      expect(records(report)).toEqual({ ok: 6, missing: 0, changed: 0, 'deleted since': 0, unreachable: 0 });
      // Bob's, Carol's and Dan's repositories hold the six records.
      expect(proofs(report)).toEqual(byRepository ? [6, 3] : [0, 0]);
      expect(report.records?.proofs.fellBack).toBe(0);
      expect(report.publication).toMatchObject({ status: 'verified', handle: 'manahq.test', warnings: [] });
      expect(report.hash.matches).toBe(true);
      expect(report.members).toMatchObject({ total: 2, differing: 0 });
      expect(report.records?.notTraceable).toBe(1);
    });

    it('names a like that does not exist as missing, and a record whose CID was changed', async () => {
      const fake = {
        author: w.did.eve!,
        cid: members[0]!.posts![0]!.records![0]!.cid,
        createdAt: '2026-11-24T12:00:00.000Z',
        kind: 'like' as const,
        uri: `at://${w.did.eve}/app.bsky.feed.like/3lzzzzzzzzzzz`,
      };
      const tampered = structuredClone(members);
      tampered[0]!.posts![0]!.records!.push(fake);
      await w.serve(encodeLedger(buildLedgerLines({ members: tampered })));
      let report = await check();
      expect(report.exitCode).toBe(1);
      expect(records(report)).toMatchObject({ ok: 6, missing: 1 });
      expect(proofs(report)).toEqual(byRepository ? [7, 4] : [0, 0]);
      expect(report.records?.examples[0]).toMatchObject({ status: 'missing', uri: fake.uri });
      expect(renderReport(report)).toMatch(
        /missing: line \d+: at:\/\/.*3lzzzzzzzzzzz: its author's server proves it absent \(at \S+\), and the operator kept no proof of it$/m,
      );

      const cid = structuredClone(members);
      const carolsLike = cid[0]!.posts![0]!.records![1]!;
      carolsLike.cid = cid[0]!.posts![0]!.records![2]!.cid;
      await w.serve(encodeLedger(buildLedgerLines({ members: cid })));
      report = await check();
      expect(records(report)).toMatchObject({ ok: 5, changed: 1 });
      expect(proofs(report)).toEqual(byRepository ? [6, 3] : [0, 0]);
      expect(report.records?.examples[0]?.detail).toMatch(/^CID is \S+, the ledger says \S+$/);
    });

    it('names every case of the tamper proxy (dev/) in front of a closed week, the hash among them', async () => {
      await w.serve(encodeLedger(lines()));
      // Each case's own line; every case also changes the bytes, so the hash differs in each.
      const named: Record<TamperCase, RegExp> = {
        'fake-like': /^records\s+7 checked: 6 ok, 1 missing, 0 changed/m,
        weight: /^members\s+1 of 2 differ from the recomputation$/m,
        total: /^members\s+1 of 2 differ from the recomputation$/m,
        cid: /^records\s+6 checked: 5 ok, 0 missing, 1 changed/m,
        hash: /^published\s+DIFFERS: .*the post names sha256:\w+, the ledger's bytes hash to sha256:/m,
      };
      const said: string[] = [];
      for (const tamperCase of TAMPER_CASES) {
        const proxy = await startTamperProxy({
          origin: w.origin.url,
          tamperCase,
          port: 0,
          log: (l) => said.push(l),
        });
        try {
          const report = await check({ origin: proxy.url });
          const text = renderReport(report);
          expect(report.exitCode, tamperCase).toBe(1);
          expect(text, tamperCase).toMatch(/^hash\s+DIFFERS: the index says sha256:/m);
          expect(text, tamperCase).toMatch(named[tamperCase]);
        } finally {
          await new Promise((resolve) => proxy.server.close(resolve));
        }
      }
      expect(said.map((line) => line.split(': ')[1])).toEqual([...TAMPER_CASES]);
    });

    it('reports a like deleted after the week closed as deleted since, on the proof the operator kept', async () => {
      const eveLike = await w.like('eve', p1);
      await w.keepProof(eveLike.uri);
      const withEve = structuredClone(members);
      withEve[0]!.posts![0]!.records!.push(eveLike);
      await w.serve(encodeLedger(buildLedgerLines({ members: withEve })));
      await w.deleteRecord(eveLike.uri);
      const report = await check();
      expect(records(report)).toEqual({ ok: 6, missing: 0, changed: 0, 'deleted since': 1, unreachable: 0 });
      expect(report.exitCode).toBe(0);
      expect(proofs(report)).toEqual(byRepository ? [7, 4] : [0, 0]);
      expect(report.records?.examples[0]?.detail).toMatch(
        /^its author's server proves it absent \(at .*\); its author signed it at \S+ \(proof kept by the operator at 2026-11-29T12:00:00.000Z\)$/,
      );
      // Without the operator's proof, the same gap is the operator's fault.
      const kept = w.state.proofs;
      w.state.proofs = null;
      try {
        const bare = await check();
        expect(records(bare)).toMatchObject({ missing: 1, 'deleted since': 0 });
        expect(bare.exitCode).toBe(1);
      } finally {
        w.state.proofs = kept;
      }
    });

    it('says which records could not be checked: a DID document pointing nowhere, a server that times out', async () => {
      const silent = await startSilentServer();
      // A port nothing listens on: the DID document points nowhere.
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      // Once for both modes.
      w.did.fran ??= (
        await w.sc.createAccount('fran', {
          handle: 'fran.test',
          email: 'fran@example.test',
          password: 'fran-pw',
        })
      ).did as `did:${string}:${string}`;
      const plc = await startPlcProxy(
        w.net.plcUrl,
        new Map([
          [w.did.eve!, pdsAt(nowhere)],
          [w.did.fran, pdsAt(silent.url)],
        ]),
      );
      try {
        const extra = structuredClone(members);
        const eves = await w.like('eve', p1);
        const eveRkey = eves.uri.split('/').at(-1);
        extra[0]!.posts![0]!.records!.push(eves, await w.like('fran', p1));
        await w.serve(encodeLedger(buildLedgerLines({ members: extra })));
        const report = await check({ plcUrl: plc.url, http: { timeoutMs: 1_500, retries: 0 } });
        expect(records(report)).toMatchObject({ ok: 6, unreachable: 2 });
        const details = report.records!.examples.map((e) => e.detail);
        expect(details).toEqual(
          expect.arrayContaining([
            `${nowhere}/xrpc/com.atproto.sync.getRecord?did=${encodeURIComponent(w.did.eve!)}&collection=app.bsky.feed.like&rkey=${eveRkey} could not be fetched (ECONNREFUSED)`,
            expect.stringMatching(/ timed out after 2 s$/),
          ]),
        );
        expect(report).toMatchObject({ result: 'incomplete', exitCode: 3 });
        // Eve's and Fran's repositories could not be fetched: their records were fetched one by one, as above.
        expect(report.records?.proofs.fellBack).toBe(byRepository ? 2 : 0);
      } finally {
        await plc.close();
        await silent.close();
      }
    });
  });

  it('checks the records of an author whose repository is over the cap one by one, with the same outcome', async () => {
    // Gus's repository passes the cap of a few records (1 MB): nine records of 140 KB (each its own block: they
    // differ) beside his like.
    const gus = (
      await w.sc.createAccount('gus', { handle: 'gus.test', email: 'gus@example.test', password: 'gus-pw' })
    ).did as `did:${string}:${string}`;
    w.did.gus = gus;
    for (let i = 0; i < 9; i++) {
      await w.sc.agent.com.atproto.repo.createRecord(
        {
          repo: gus,
          collection: 'org.manaboard.test.padding',
          record: { text: `${i}`.padEnd(140_000, 'x') },
        },
        { headers: w.sc.getHeaders(gus), encoding: 'application/json' },
      );
    }
    const repo = await fetch(`${w.net.pdsUrl.replace(/\/$/, '')}/xrpc/com.atproto.sync.getRepo?did=${gus}`);
    expect((await repo.arrayBuffer()).byteLength).toBeGreaterThan(repositoryCap(1));
    const withGus = structuredClone(members);
    withGus[0]!.posts![0]!.records!.push(await w.like('gus', p1));
    await w.serve(encodeLedger(buildLedgerLines({ members: withGus })));
    const report = await run({ repoThreshold: 0 });
    expect(records(report)).toEqual({ ok: 7, missing: 0, changed: 0, 'deleted since': 0, unreachable: 0 });
    expect(report.records?.proofs).toEqual({ records: 6, repositories: 3, fellBack: 1 });
    expect(report.exitCode).toBe(0);
  });

  it('runs as a command: the report on stdout with a sample and its confidence, exit 0; a bad flag, exit 2', async () => {
    await w.serve(encodeLedger(lines()));
    const cli = new URL('./cli.ts', import.meta.url).pathname;
    const ran = await runScript(
      cli,
      [
        w.origin.url,
        '--plc',
        w.net.plcUrl,
        '--handle-resolver',
        w.net.pdsUrl,
        '--official-domain',
        'test',
        '--sample',
        '0.5',
      ],
      process.env,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^records\s+\d+ sampled of 6 checked: \d+ ok, 0 missing/m);
    expect(ran.stdout).toContain('with 50.00 % sampled and no fault found, at most 4 of the 6 records');
    expect(ran.stdout).toContain('CONSISTENT (exit 0)');
    // Not a terminal: plain progress lines, no bar.
    expect(ran.stderr).not.toContain('\r');

    const bad = await runScript(cli, [w.origin.url, '--sample', '5'], process.env);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^--sample must be a share above 0 and at most 1/);
    const proofs = await runScript(cli, [w.origin.url, '--proofs', 'all'], process.env);
    expect(proofs).toMatchObject({ code: 2, stdout: '' });
    expect(proofs.stderr).toMatch(/^--proofs must be auto .* or record/);
    const week = await runScript(cli, [w.origin.url, '--week', '2026-W01'], process.env);
    expect(week).toMatchObject({ code: 2, stderr: 'the index lists no ledger for 2026-W01\n' });
  });

  it('fails a publication whose DID document claims the official handle that resolves to another account', async () => {
    // Eve's document (through a directory in front of the real one) claims @manahq.test; the hash is posted from
    // Eve's repository. The handle itself, resolved on its own, names manahq's DID.
    const plc = await startPlcProxy(
      w.net.plcUrl,
      new Map([
        [w.did.eve!, (doc: Record<string, unknown>) => ({ ...doc, alsoKnownAs: ['at://manahq.test'] })],
      ]),
    );
    try {
      await w.serve(encodeLedger(lines()), { by: 'eve' });
      const report = await run({ plcUrl: plc.url });
      expect(report.publication).toMatchObject({
        status: 'failed',
        detail: `@manahq.test resolves to ${w.did.manahq} (${w.net.pdsUrl.replace(/\/$/, '')} (com.atproto.identity.resolveHandle)), not to ${w.did.eve}, whose repository holds the post: its DID document claims a handle that is not its own`,
      });
      expect(report.exitCode).toBe(1);
      // Without a claim at all: not the official account either.
      await w.serve(encodeLedger(lines()), { by: 'carol' });
      const carol = await run();
      expect(carol.publication).toMatchObject({
        status: 'failed',
        detail: "the post is by @carol.test, which the rules' official handles (@manahq.test) do not name",
      });
    } finally {
      await plc.close();
    }
  });

  // Last: the official account and members rotate their signing keys, which the later commits of this network's
  // PDS (still holding the old keys) would not match.
  it('verifies a week published before the official account rotated its signing key, with the key then in force', async () => {
    await w.serve(encodeLedger(lines()));
    // Bob's records too: his repository's commit, and each record's proof, were signed with his key then.
    for (const name of ['manahq', 'alice', 'bob']) {
      const next = await Secp256k1Keypair.create();
      await updatePlcDocument(w.net, w.did[name]!, (op) => ({
        ...op,
        verificationMethods: { ...op.verificationMethods, atproto: next.did() },
      }));
    }
    const doc = (await (await fetch(`${w.net.plcUrl}/${w.did.manahq}`)).json()) as {
      verificationMethod: Array<{ publicKeyMultibase: string }>;
    };
    expect(doc.verificationMethod).toHaveLength(1);
    for (const repoThreshold of [Infinity, 0]) {
      const report = await run({ repoThreshold });
      expect(renderReport(report)).toContain('CONSISTENT (exit 0)');
      expect(report.publication).toMatchObject({ status: 'verified', handle: 'manahq.test', warnings: [] });
      expect(records(report)).toEqual({ ok: 6, missing: 0, changed: 0, 'deleted since': 0, unreachable: 0 });
      expect(report.records?.proofs.records).toBe(repoThreshold === 0 ? 6 : 0);
    }
  });
});
