/**
 * A client that hangs up mid-body, at a moment the test knows rather than guesses: it sends its
 * headers with `Expect: 100-continue`, and workerd answers 100 Continue only once the Worker starts
 * reading the body. Then it sends part of the body and closes, so the Worker is always mid-read
 * when the client goes, however busy the machine is.
 */
import { connect } from 'node:net'

/** POSTs `path` on `base` with `headers`, sends `partialBody` of a declared 4,000 bytes, and hangs up. */
export function hangUpMidBody(
  base: string,
  path: string,
  headers: Record<string, string>,
  partialBody: string,
) {
  const { hostname, port } = new URL(base)
  return new Promise<void>((resolve, reject) => {
    let received = ''
    const socket = connect(Number(port), hostname, () => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`)
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 4000\r\nExpect: 100-continue\r\n${lines.join('')}\r\n`,
      )
    })
    socket.on('data', (chunk) => {
      received += chunk
      if (/^HTTP\/1\.1 100 /.test(received)) {
        socket.end(partialBody)
        socket.destroy()
      } else if (/^HTTP\/1\.1 \d{3} /.test(received)) {
        socket.destroy()
        reject(new Error(`answered before the body was read: ${received.split('\r\n')[0]}`))
      }
    })
    socket.on('close', () => resolve())
    socket.on('error', () => undefined)
  })
}
