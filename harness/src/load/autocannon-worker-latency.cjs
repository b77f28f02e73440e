// autocannon's setupClient inside each of its worker threads (it takes a file path there, loaded
// with require, so this is plain CommonJS). It times nothing itself: autocannon hands each answer's
// duration, measured from its write with the high-resolution clock, to the client's 'response'
// event. The 2xx durations go into this thread's HDR histogram in whole µs (as
// stats/latency-histogram.ts does in-process), and when the thread's last client is destroyed (the
// run's end) the histogram goes to the harness over the BroadcastChannel named in the run's title.
const { BroadcastChannel, workerData } = require('node:worker_threads');
const { build, encodeIntoCompressedBase64 } = require('hdr-histogram-js');

const histogram = build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
let open = 0;

module.exports = function setupClient(client) {
  open++;
  client.on('response', (status, _bytes, duration) => {
    if (status >= 200 && status < 300 && typeof duration === 'number') histogram.recordValue(Math.max(1, Math.round(duration * 1000)));
  });
  client.on('done', () => {
    open--;
    if (open > 0) return;
    const channel = new BroadcastChannel(workerData.opts.title);
    channel.postMessage(encodeIntoCompressedBase64(histogram));
    channel.close();
  });
};
