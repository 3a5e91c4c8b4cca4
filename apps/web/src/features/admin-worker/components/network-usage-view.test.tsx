import { render, screen } from '@testing-library/react';
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
    expect(screen.queryByRole('alert')).toBeNull();
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
        }}
      />,
    );
    expect(screen.getAllByText('unknown')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
