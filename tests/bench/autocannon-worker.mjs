// Runs one autocannon measurement in a child process, so the load generator does not
// share the event loop of the server it measures (bench/server.ts). (Not a worker thread:
// autocannon inside a worker thread behaves as one of its own workers.)
// argv[2] is JSON: { options, pushBatch?, vary? }. `vary` makes every request differ:
//   { kind: 'search', words, sorts, limits? } GET <url>?sort=<sort>&search=<word>[&limit=<n>], the word changing each
//                                            request (words × sorts × limits distinct pages, more than the server's page cache keeps)
//   { kind: 'paths', paths }                 GET each of `paths` in turn (a topic, a pull's checkpoint, a page size differing)
//   { kind: 'response', topics }             POST /api/responses to a random one of the seed's topics
//   { kind: 'response-push', topics, batch } a sync push of `batch` new responses, each to a random topic
// and `pushBatch` (the same as { kind: 'topic-push', batch }) a sync push of that many new topics.
import autocannon from 'autocannon';

const { options, pushBatch, vary: given } = JSON.parse(process.argv[2]);
const vary = given ?? (pushBatch ? { kind: 'topic-push', batch: pushBatch } : undefined);
let made = 0;
const newId = (kind) => `${kind}-${process.pid}-${Date.now().toString(36)}-${made++}`;
// The seed's topic ids (tests/bench/seed.ts): bench-topic-big, bench-topic-1 … bench-topic-(n-1).
const randomTopic = (topics) => {
  const i = Math.floor(Math.random() * topics);
  return i === 0 ? 'bench-topic-big' : `bench-topic-${i}`;
};

function topicDoc() {
  const id = newId('push');
  return {
    newDocumentState: {
      id,
      title: `Pushed ${id}`,
      category: 'Other',
      creator_uid: 'bench',
      username: null,
      created_at: '',
      score: 0,
      responses_count: 0,
      seq: 0,
      _deleted: false,
    },
  };
}

function responseDoc(topics) {
  return {
    newDocumentState: {
      id: newId('push-r'),
      topic_id: randomTopic(topics),
      parent_response_id: null,
      quoted_response_id: null,
      type: 'for',
      content: 'An argument pushed by the bench, one of fifty in its request.',
      sources: [],
      _deleted: false,
    },
  };
}

// `options.url` may list several servers (autocannon spreads the connections over them): all serve one path.
const searchPath = new URL([options.url].flat()[0]).pathname;

function setup(request) {
  switch (vary.kind) {
    case 'topic-push':
      return { ...request, body: JSON.stringify(Array.from({ length: vary.batch }, topicDoc)) };
    case 'response-push':
      return { ...request, body: JSON.stringify(Array.from({ length: vary.batch }, () => responseDoc(vary.topics))) };
    case 'response':
      return {
        ...request,
        body: JSON.stringify({ topic_id: randomTopic(vary.topics), type: 'for', content: 'A new argument posted by the bench.' }),
      };
    case 'search': {
      const n = made++;
      const word = vary.words[n % vary.words.length];
      const sort = vary.sorts[Math.floor(n / vary.words.length) % vary.sorts.length];
      const limits = vary.limits ?? [];
      const limit = limits.length ? `&limit=${limits[Math.floor(n / (vary.words.length * vary.sorts.length)) % limits.length]}` : '';
      return { ...request, path: `${searchPath}?sort=${sort}&search=${encodeURIComponent(word)}${limit}` };
    }
    case 'paths':
      return { ...request, path: vary.paths[made++ % vary.paths.length] };
    default:
      throw new Error(`autocannon-worker: unknown vary kind ${vary.kind}`);
  }
}

const result = await autocannon({ ...options, ...(vary ? { requests: [{ setupRequest: setup }] } : {}) });
process.send({
  requestsPerSecond: result.requests.average,
  total: result.requests.total,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  latencyMean: result.latency.mean,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
});
