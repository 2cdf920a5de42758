// Runs one autocannon measurement in a child process, so the load generator does not
// share the event loop of the server it measures (bench/server.ts). (Not a worker thread:
// autocannon inside a worker thread behaves as one of its own workers.)
import autocannon from 'autocannon';

const { options, pushBatch } = JSON.parse(process.argv[2]);
let made = 0;
const requests = pushBatch
  ? [
      {
        // Every push carries `pushBatch` new topics with ids never used before.
        setupRequest(request) {
          const docs = [];
          for (let k = 0; k < pushBatch; k++) {
            const id = `push-${process.pid}-${Date.now().toString(36)}-${made++}`;
            docs.push({
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
            });
          }
          return { ...request, body: JSON.stringify(docs) };
        },
      },
    ]
  : undefined;
const result = await autocannon({ ...options, ...(requests ? { requests } : {}) });
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
