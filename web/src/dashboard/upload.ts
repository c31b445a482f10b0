// Sending a multipart/form-data body to the console API with upload progress. fetch() cannot
// report how much of a request body has been sent, so this uses XMLHttpRequest. Errors are the
// same ApiErrors as api() throws, with the server's code and message.
import { ApiError, authHeaders, errorFromBody, NETWORK_ERROR } from "./api";

const CUT_OFF = "The upload stopped before the server answered: the file may be larger than the server accepts, or the connection was lost.";

export interface UploadProgress {
  loaded: number; // bytes of the request body sent
  total: number; // bytes of the whole request body
}

export interface Upload<T> {
  done: Promise<T>;
  abort(): void;
}

// POSTs `form` to `path`. `onProgress` is called as the body is sent; once it has all been sent,
// the server is still reading the file, so the answer may come some time after the last call.
export function postForm<T>(path: string, form: FormData, onProgress: (p: UploadProgress) => void): Upload<T> {
  const xhr = new XMLHttpRequest();
  let sentAll = false;
  const done = new Promise<T>((resolve, reject) => {
    xhr.open("POST", path);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.upload.onload = () => (sentAll = true);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(new ApiError(xhr.status, "bad_response", "The server's answer could not be read."));
        }
      } else {
        reject(errorFromBody(xhr.status, xhr.statusText, xhr.responseText));
      }
    };
    // A server that refuses a body it will not read (413 before the upload ends) may close the
    // connection before the browser reads its answer: the browser then reports a network error.
    xhr.onerror = () => reject(new ApiError(0, "network_error", sentAll ? NETWORK_ERROR : CUT_OFF));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was stopped."));
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

// "743 B", "12 KB", "3.4 MB".
export const sizeText = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

// Why an upload was refused, for a person: the server's message, and for a body over the route's
// limit (413, "… the limit of N bytes.") that limit in words.
export function refusalOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 413) {
    const limit = /(\d+) bytes/.exec(err.message)?.[1];
    if (limit) return `Too large: this server takes uploads of up to ${sizeText(Number(limit))}.`;
  }
  return err instanceof Error ? err.message : String(err);
}
