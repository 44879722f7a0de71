// A worker thread that makes one self-signed certificate (./self-signed.ts) and sends it back: selfsigned and its
// libraries are loaded here and freed with the thread, not kept by the process that asked (certificate.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { selfSigned, type CertificateRequest } from './self-signed.js';

const request: CertificateRequest = workerData;
parentPort?.postMessage(await selfSigned(request));
