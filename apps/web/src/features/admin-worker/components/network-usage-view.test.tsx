import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NetworkUsage } from '@manaboard/contract/admin';
import { NetworkUsageView } from './network-usage-view';

const stream: Extract<NetworkUsage, { kind: 'stream' }> = {
  kind: 'stream',
  network: 'bluesky',
  lastEventAt: '2026-11-22T10:00:00.000Z',
  lagSeconds: 3,
  lagBoundSeconds: 120,
  seenPerSecond: 2_150.5,
  storedPerSecond: 96,
  replayWindowSeconds: 86_400,
  replayWindowLeftSeconds: 86_397,
  progressAt: '2026-11-22T10:00:02.000Z',
  storedPerTenth: [],
  catchUp: { state: 'caught-up', seconds: 0, gain: 1 },
  reconnects: 2,
  lastError: 'socket closed',
};

describe('the usage of a network read from a stream', () => {
  it('shows the lag, the read and store rates, the replay window left and reconnects', () => {
    render(<NetworkUsageView usage={stream} />);
    expect(screen.getByRole('heading', { name: 'Network: bluesky' })).toBeTruthy();
    expect(screen.getByText('3 s')).toBeTruthy();
    expect(screen.getByText('2,150.5/s / 96/s')).toBeTruthy();
    expect(screen.getByText('23 h 59 min of 24 h 0 min')).toBeTruthy();
    expect(screen.getByText('22 Nov 2026, 10:00:02 UTC')).toBeTruthy();
    expect(screen.getByText('2')).toBeTruthy();
    expect(screen.getByText('Last stream error: socket closed')).toBeTruthy();
    expect(screen.getByText('Caught up')).toBeTruthy();
    expect(screen.getByText(/No tenth of a minute reported yet/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('gives the time left to catch up and the stored events of each tenth of a minute, as text too', () => {
    render(
      <NetworkUsageView
        usage={{
          ...stream,
          lagSeconds: 480,
          storedPerTenth: [
            { at: '2026-11-22T10:00:00.000Z', perSecond: 11_482.5 },
            { at: '2026-11-22T10:00:06.000Z', perSecond: 14_537 },
            { at: '2026-11-22T10:00:12.000Z', perSecond: 0 },
          ],
          catchUp: { state: 'catching-up', seconds: 240, gain: 3 },
        }}
      />,
    );
    expect(screen.getByText('About 4 min 0 s (at 3× the network’s pace)')).toBeTruthy();
    const table = screen.getByRole('table', { name: /Events stored per second, each tenth of a minute/ });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['10:00:0011,482.5/s', '10:00:0614,537/s', '10:00:120/s']);
    const summary = (_: string, el: Element | null) =>
      el?.tagName === 'P' && el.textContent === 'Latest 0/s · peak 14,537/s';
    expect(screen.getByText(summary)).toBeTruthy();
  });

  it('says when the stream is not catching up', () => {
    render(
      <NetworkUsageView
        usage={{
          ...stream,
          lagSeconds: 900,
          catchUp: { state: 'not-catching-up', seconds: null, gain: 0.8 },
        }}
      />,
    );
    expect(screen.getByText('Not catching up (at 0.8× the network’s pace)')).toBeTruthy();
  });

  it('says when the stream is behind, and when its replay window is used up', () => {
    render(
      <NetworkUsageView
        usage={{
          ...stream,
          lastEventAt: '2026-11-21T08:00:00.000Z',
          lagSeconds: 93_600,
          seenPerSecond: null,
          storedPerSecond: null,
          replayWindowLeftSeconds: 0,
          reconnects: null,
          lastError: null,
        }}
      />,
    );
    expect(screen.getByText('26 h 0 min (behind)')).toBeTruthy();
    expect(screen.getByText('no report / no report')).toBeTruthy();
    expect(screen.getByText('0 s of 24 h 0 min')).toBeTruthy();
    expect(screen.getByText('not recorded here')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'The stream is behind: more than 2 min 0 s of lag. The replay window is used up: events older than it are lost (the gap is reported in the log).',
    );
  });

  it('says the lag and window are unknown before the stream stored anything', () => {
    render(
      <NetworkUsageView
        usage={{
          ...stream,
          lastEventAt: null,
          lagSeconds: null,
          seenPerSecond: null,
          storedPerSecond: null,
          replayWindowLeftSeconds: null,
          progressAt: null,
          catchUp: { state: 'unknown', seconds: null, gain: null },
        }}
      />,
    );
    expect(screen.getAllByText('unknown')).toHaveLength(3);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
