// SPDX-License-Identifier: MIT
import type { ParameterReport } from '../core/types';
import { roundedCount, withThousands } from '../format';

const rows: Array<[keyof ParameterReport['breakdown'], string]> = [
  ['embedding', 'Embedding'],
  ['attention', 'Attention'],
  ['mlp', 'MLP'],
  ['routed_experts', 'Routed experts'],
  ['shared_experts', 'Shared experts'],
  ['router', 'Router'],
  ['norms', 'Norms'],
  ['lm_head', 'lm_head'],
];

export function ParameterTable({ report }: { report: ParameterReport }) {
  const { breakdown } = report;
  return (
    <table class="figures" data-testid="parameter-table">
      <caption>
        Parameters of {report.architecture || report.model_type} ({report.model_type})
      </caption>
      <thead>
        <tr>
          <th scope="col">Component</th>
          <th scope="col" class="number">Exact</th>
          <th scope="col" class="number">Rounded</th>
        </tr>
      </thead>
      <tbody>
        {rows
          .filter(([key]) => breakdown[key] !== 0 || key === 'lm_head')
          .map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{key === 'lm_head' && report.shape.tie_word_embeddings ? 'lm_head (tied to embedding)' : label}</th>
              <td class="number">{withThousands(breakdown[key])}</td>
              <td class="number">{roundedCount(breakdown[key])}</td>
            </tr>
          ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td class="number" data-testid="total-params">{withThousands(report.total_params)}</td>
          <td class="number">{roundedCount(report.total_params)}</td>
        </tr>
        {report.active_params_per_token !== report.total_params && (
          <tr title={report.active_params_convention}>
            <th scope="row">Active per token</th>
            <td class="number" data-testid="active-params">{withThousands(report.active_params_per_token)}</td>
            <td class="number">{roundedCount(report.active_params_per_token)}</td>
          </tr>
        )}
      </tfoot>
    </table>
  );
}
