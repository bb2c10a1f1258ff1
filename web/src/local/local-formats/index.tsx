// SPDX-License-Identifier: MIT
// Which file to download: the Local tab's weight formats tables (core compare_local_formats for llama.cpp,
// compare_mlx_formats for MLX LM), shown once asked for; a row's name chooses its weights.
import type { ComponentChildren } from 'preact';
import type { LocalFormatsReport, LocalVerdict, MlxFormatsReport } from '../../core/types';
import type { ByteUnit } from '../../app/inputs';
import { bytesIn, withThousands } from '../../ui/format';

export interface FormatsProps {
  /** Each common GGUF type on this machine, or each MLX conversion on the chip (absent until asked for). */
  formats?: LocalFormatsReport | MlxFormatsReport;
  formatsError?: string;
  onCompareFormats?: () => void;
  /** Sets the Weights input to a row's type. */
  onUseWeights?: (weights: string) => void;
}

/** A row of either table: its weights, whether they are the inputs' own, whether they fit. */
interface FormatRowBase {
  weights: string;
  chosen: boolean;
  fits: boolean;
}

interface Column {
  label: string;
  numeric: boolean;
}

/**
 * The section both engines share: the button until asked, then the table (the weights, then the engine's columns)
 * and its note, or the core's error. A row's weights are bold where chosen, red where they do not fit, and named
 * by a button that chooses them.
 */
function FormatsSection<Row extends FormatRowBase>({
  heading,
  offer,
  note,
  columns,
  rows,
  cells,
  formatsError,
  onCompareFormats,
  onUseWeights,
}: {
  heading: string;
  offer: string;
  note: string;
  columns: Column[];
  rows?: Row[];
  cells: (row: Row) => ComponentChildren;
} & Omit<FormatsProps, 'formats'>) {
  return (
    <section data-testid="local-formats-section">
      <h3>{heading}</h3>
      {formatsError ? (
        <p class="error" data-testid="local-formats-error">
          {formatsError}
        </p>
      ) : rows ? (
        <>
          <div class="table-scroll">
            <table class="figures" data-testid="local-formats">
              <thead>
                <tr>
                  <th scope="col">Weights</th>
                  {columns.map(({ label, numeric }) => (
                    <th key={label} scope="col" class={numeric ? 'number' : undefined}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr
                    key={row.weights}
                    class={row.fits ? (row.chosen ? 'chosen' : '') : 'over'}
                    aria-current={row.chosen ? 'true' : undefined}
                  >
                    <th scope="row">
                      {onUseWeights && !row.chosen ? (
                        <button
                          type="button"
                          class="link-button"
                          title={`Use ${row.weights} weights`}
                          data-testid={`local-use-${row.weights}`}
                          onClick={() => onUseWeights(row.weights)}
                        >
                          {row.weights}
                        </button>
                      ) : (
                        row.weights
                      )}
                    </th>
                    {cells(row)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="help">{note}</p>
        </>
      ) : (
        <p>
          {`${offer} `}
          <button type="button" data-testid="local-compare-formats" onClick={onCompareFormats}>
            Compare weight formats
          </button>
        </p>
      )}
    </section>
  );
}

const speed = (tokensPerSecond: number) => `${tokensPerSecond.toFixed(1)} t/s`;
const promptSpeed = (tokensPerSecond: number) => `${withThousands(tokensPerSecond)} t/s`;

/** Under MLX LM: each mlx-community conversion's peak memory and speeds on the chip. */
export function MlxConversions({ unit, formats, ...section }: { unit: ByteUnit } & FormatsProps) {
  const rows = formats && 'engine' in formats ? formats.formats : undefined;
  return (
    <FormatsSection
      {...section}
      heading="Weight formats on this chip"
      offer="Which conversion to download: the model unquantized and at 8, 6, 5, 4 and 3 bits on this chip."
      note={
        'Each conversion as mlx_lm.convert writes it (quantized rows at the group size above), its peak as ' +
        "mx.get_peak_memory() reports it against the GPU's working set; a peak over it pages. The row of the weights " +
        "chosen above is marked, and another conversion's name chooses it."
      }
      columns={[
        { label: 'Weights size', numeric: true },
        { label: 'Peak memory', numeric: true },
        { label: 'Generation', numeric: true },
        { label: 'Prompt', numeric: true },
      ]}
      rows={rows}
      cells={(row) => (
        <>
          <td class="number">{bytesIn(row.weight_bytes, unit)}</td>
          <td class="number">
            {row.fits ? bytesIn(row.peak_memory_bytes, unit) : `${bytesIn(row.peak_memory_bytes, unit)}: over`}
          </td>
          <td class="number">{speed(row.generation_tokens_per_second)}</td>
          <td class="number">{promptSpeed(row.prompt_tokens_per_second)}</td>
        </>
      )}
    />
  );
}

const runsOnText: Record<LocalVerdict['runs_on'], string> = {
  gpus: 'wholly on the GPU',
  gpus_and_ram: 'split with RAM',
  cpu: 'on the CPU',
  does_not_fit: 'does not fit',
};

/** Under llama.cpp: each common GGUF type on this machine, placed as llama.cpp's --fit places it. */
export function WeightFormats({ unit, formats, ...section }: { unit: ByteUnit } & FormatsProps) {
  const rows = formats && !('engine' in formats) ? formats.formats : undefined;
  return (
    <FormatsSection
      {...section}
      heading="Weight formats on this machine"
      offer="Which file to download: the model at f16, q8_0, q6_k, q5_k_m, q4_k_m, iq4_xs, q3_k_m and q2_k on this machine."
      note={
        "Each type as llama.cpp's --fit places it on this machine (the GPU layers and experts in RAM chosen above are " +
        'not applied), at the context, KV cache and prompt above; the row of the weights chosen above is marked, and ' +
        "another type's name chooses it."
      }
      columns={[
        { label: 'Model', numeric: true },
        { label: 'Layers on GPU', numeric: true },
        { label: 'Runs', numeric: false },
        { label: 'Generation', numeric: true },
        { label: 'Prompt', numeric: true },
      ]}
      rows={rows}
      cells={(row) => (
        <>
          <td class="number">{bytesIn(row.model_buffer_bytes, unit)}</td>
          <td class="number">
            {`${row.n_gpu_layers}/${row.n_layers}` + (row.n_cpu_moe > 0 ? `, experts of ${row.n_cpu_moe} in RAM` : '')}
          </td>
          <td>{runsOnText[row.runs_on]}</td>
          <td class="number">{row.fits ? speed(row.generation_tokens_per_second) : '–'}</td>
          <td class="number">{row.fits ? promptSpeed(row.prompt_tokens_per_second) : '–'}</td>
        </>
      )}
    />
  );
}
