/** One series: a route pattern, method and status, with a count per bucket (not cumulative) and the sum. */
type Series = {
  labels: { route: string; method: string; status: number };
  counts: Float64Array;
  sum: number;
  count: number;
};

/** A sample as prom-client's registry formats it (`labels` are the bucket's `le`, `sharedLabels` the series'). */
type Sample = {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string | number>;
  value: number;
  /** prom-client's buckets carry an exemplar slot (null without exemplars). */
  exemplar?: null;
};

/**
 * The HTTP request histogram, on the hot path of every request (issue 23). prom-client's own Histogram builds a
 * labels object for each observation, validates it and hashes it with its keys sorted: ~0.4 µs of a ~17 µs
 * cached read. Here a request costs one string key, one map lookup and two additions; prom-client's registry
 * still formats it at scrape time, as the same histogram with the same series its Histogram would show.
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();
  /** Resets so far: an observer whose series a reset dropped finds it anew. */
  private resets = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(route: string, method: string, status: number, seconds: number): void {
    this.add(this.seriesOf(route, method, status), seconds);
  }

  /**
   * One series' observer, for a caller that observes the same route, method and status again and again (the
   * stored reads): no key is built and no map is read per observation. It finds its series anew after a reset.
   */
  observer(route: string, method: string, status: number): (seconds: number) => void {
    let resets = this.resets;
    let series: Series | undefined;
    return (seconds) => {
      if (series === undefined || resets !== this.resets) {
        resets = this.resets;
        series = this.seriesOf(route, method, status);
      }
      this.add(series, seconds);
    };
  }

  private seriesOf(route: string, method: string, status: number): Series {
    const key = `${status} ${method} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = {
        labels: { route, method, status },
        counts: new Float64Array(this.bounds.length),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    return series;
  }

  private add(series: Series, seconds: number): void {
    const bounds = this.bounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= (bounds[index] ?? 0)) {
        series.counts[index] = (series.counts[index] ?? 0) + 1;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  /** What prom-client's registry reads to write the text format. */
  getForPromString() {
    const values: Sample[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, index) => {
        cumulative += counts[index] ?? 0;
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { le },
          sharedLabels: labels,
          value: cumulative,
          exemplar: null,
        });
      });
      values.push(
        {
          metricName: `${this.name}_bucket`,
          labels: { le: '+Inf' },
          sharedLabels: labels,
          value: count,
          exemplar: null,
        },
        { metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels, value: sum },
        { metricName: `${this.name}_count`, labels: {}, sharedLabels: labels, value: count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`registry.getMetricsAsJSON()`): each sample's labels in one object. */
  get() {
    const data = this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...sample }) => ({
        ...sample,
        labels: { ...sharedLabels, ...labels },
      })),
    };
  }

  reset(): void {
    this.series.clear();
    this.resets += 1;
  }
}
