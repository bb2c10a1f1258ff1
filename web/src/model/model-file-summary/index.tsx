// SPDX-License-Identifier: MIT
// A weight file (GGUF, safetensors, model.safetensors.index.json) read in this page: its header's
// tensor count, exact parameters and bytes, bytes by tensor type and the hyperparameters it states.
// Only the header is read (state/model-file.ts); the figures are the core's (checkpointReport).
import { useEffect, useState } from 'preact/hooks';
import type { CheckpointReport } from '../../core/types';
import { loadCore } from '../../core/load';
import { gib, roundedCount, withThousands } from '../../ui/format';
import { readModelFileHeader, type ModelFileResult, type SliceableFile } from '../model-file';

interface Props {
  file: SliceableFile;
  onClose: () => void;
}

const hyperparameterNames: Array<[keyof NonNullable<CheckpointReport['hyperparameters']>, string]> = [
  ['block_count', 'layers (block_count)'],
  ['embedding_length', 'hidden size (embedding_length)'],
  ['feed_forward_length', 'MLP width (feed_forward_length)'],
  ['attention.head_count', 'attention heads'],
  ['attention.head_count_kv', 'KV heads'],
  ['expert_count', 'experts'],
  ['expert_used_count', 'experts per token'],
  ['context_length', 'context length'],
  ['vocab_size', 'vocabulary'],
];

export function ModelFileSummary({ file, onClose }: Props) {
  const [result, setResult] = useState<ModelFileResult | undefined>();
  useEffect(() => {
    let current = true;
    setResult(undefined);
    void loadCore()
      .then((core) => readModelFileHeader(file, core))
      .catch((error: Error) => ({ error: `${file.name ?? 'the file'}: ${error.message}` }))
      .then((answer) => {
        if (current) setResult(answer);
      });
    return () => {
      current = false;
    };
  }, [file]);

  return (
    <section class="model-file" aria-label="Model file" data-testid="model-file">
      <div class="config-label">
        <strong>{file.name ?? 'Model file'}</strong>
        <button type="button" data-testid="model-file-close" onClick={onClose}>
          Close
        </button>
      </div>
      {!result && <p class="help">Reading the header…</p>}
      {result && 'error' in result && (
        <p class="error" role="alert" data-testid="model-file-error">
          {result.error}
        </p>
      )}
      {result && 'report' in result && <Report report={result.report} bytesRead={result.bytesRead} />}
    </section>
  );
}

function Report({ report, bytesRead }: { report: CheckpointReport; bytesRead: number }) {
  const h = report.hyperparameters;
  return (
    <>
      <p data-testid="model-file-headline">
        {report.format === 'gguf'
          ? `GGUF v${report.gguf_version}`
          : report.format === 'safetensors'
            ? 'safetensors'
            : 'safetensors index'}
        {report.architecture && ` · ${report.architecture}`}
        {report.name && ` · ${report.name}`}
        {` · ${withThousands(report.tensor_count)} tensors`}
      </p>
      {report.shapes_known ? (
        <p data-testid="model-file-totals">
          <strong>{withThousands(report.total_parameters)}</strong> parameters ({roundedCount(report.total_parameters)}
          ), <strong>{withThousands(report.total_bytes)}</strong> bytes ({gib(report.total_bytes)})
          {report.total_parameters > 0 &&
            `, ${((8 * report.total_bytes) / report.total_parameters).toFixed(3)} bits per parameter`}
        </p>
      ) : (
        <p data-testid="model-file-totals">
          total_size <strong>{withThousands(report.total_bytes)}</strong> bytes ({gib(report.total_bytes)}) in{' '}
          {report.shards?.length ?? 0} shards
        </p>
      )}
      {report.by_type.length > 0 && report.shapes_known && (
        <table data-testid="model-file-types">
          <thead>
            <tr>
              <th scope="col">type</th>
              <th scope="col">tensors</th>
              <th scope="col">parameters</th>
              <th scope="col">bytes</th>
            </tr>
          </thead>
          <tbody>
            {report.by_type.map((row) => (
              <tr key={row.type}>
                <td>{row.type}</td>
                <td>{withThousands(row.tensors)}</td>
                <td>{withThousands(row.elements)}</td>
                <td>{withThousands(row.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {h && (
        <ul data-testid="model-file-hyperparameters">
          {hyperparameterNames.map(([key, label]) =>
            h[key] === null ? null : <li key={key}>{`${label}: ${withThousands(h[key] as number)}`}</li>,
          )}
          {h.file_type !== null && (
            <li>{`file type: ${h.file_type}${h.file_type_name ? ` (${h.file_type_name})` : ''}`}</li>
          )}
        </ul>
      )}
      {report.notes.map((note) => (
        <p class="help" key={note}>
          {note}
        </p>
      ))}
      <p class="help">{`Read ${withThousands(bytesRead)} bytes of the file (the header); the weights were not read and nothing was sent.`}</p>
    </>
  );
}
