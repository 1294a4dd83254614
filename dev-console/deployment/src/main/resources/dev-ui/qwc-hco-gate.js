import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';

/**
 * hco-operator's Dev UI page: the live gate decision as OLM reads it, who blocks it and why, the
 * upgrade's progress and timeline, and buttons that drive the simulated component operators.
 * Everything shown comes from the operator's own explanation (the JSON of /q/hco/gate), polled.
 */
export class QwcHcoGate extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: block; padding: 1em; font-family: var(--lumo-font-family, sans-serif); }
        .decision { font-size: 1.4em; font-weight: bold; padding: .4em .8em; border-radius: 6px; display: inline-block; }
        .open { background: #2e7d32; color: white; }
        .held { background: #c62828; color: white; }
        .starting { background: #9e9e9e; color: white; }
        .message { margin: .5em 0 1em 0; }
        .error { color: #c62828; font-weight: bold; }
        table { border-collapse: collapse; width: 100%; margin: .5em 0 1em 0; }
        th, td { text-align: left; padding: .3em .5em; border-bottom: 1px solid var(--lumo-contrast-10pct, #ddd); vertical-align: top; }
        td.ok { color: #2e7d32; }
        td.blocked { color: #c62828; }
        button { margin: 0 .2em .2em 0; cursor: pointer; }
        .timeline { max-height: 22em; overflow-y: auto; font-family: var(--lumo-font-family-monospace, monospace); font-size: .9em; }
        h3 { margin: 1em 0 .3em 0; }
    `;

    static properties = {
        _state: { state: true },
        _error: { state: true },
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 1000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.state().then(r => this._show(r.result)).catch(e => this._error = String(e));
    }

    _act(component, action) {
        this.jsonRpc.act({ component: component, action: action }).then(r => this._show(r.result))
            .catch(e => this._error = String(e));
    }

    _show(state) {
        this._state = state;
        this._error = state && state.error ? state.error : null;
    }

    render() {
        const s = this._state;
        if (!s) {
            return html`<div class="decision starting" id="decision">loading…</div>`;
        }
        const gate = s.gate;
        return html`
            ${this._error ? html`<p class="error" id="error">${this._error}</p>` : ''}
            ${this._decision(gate)}
            ${gate ? this._upgrade(gate.upgrade, gate.stabilization) : ''}
            <h3>Components</h3>
            ${this._components(s, gate)}
            <div>
                <button id="finish-all" @click=${() => this._act('all', 'finish-upgrade')}>Finish the upgrade (all)</button>
                <button id="replay" @click=${() => this._act('all', 'replay-upgrade')}>Replay the upgrade from ${s.previousVersion}</button>
            </div>
            <h3>Timeline</h3>
            <div class="timeline" id="timeline">
                ${[...(s.timeline || [])].reverse().map(t => html`<div>${t.at} · <b>${t.who}</b> · ${t.what}</div>`)}
            </div>
            <p><small>Operator ${s.operatorVersion} on the embedded Kubernetes API ${s.apiServer}; the same
                evidence as JSON: <code>/q/hco/gate</code> on the management port.</small></p>
        `;
    }

    _decision(gate) {
        if (!gate) {
            return html`<div class="decision starting" id="decision">No decision yet: the operator is starting</div>`;
        }
        return html`
            <div class="decision ${gate.upgradeable ? 'open' : 'held'}" id="decision"
                 data-upgradeable="${gate.upgradeable}" data-reason="${gate.reason}">
                Upgradeable=${gate.upgradeable ? 'True' : 'False'} · ${gate.reason}
            </div>
            <div class="message" id="message">${gate.message}<br><small>since ${gate.since}</small></div>
        `;
    }

    _upgrade(u, stabilization) {
        if (!u) {
            return '';
        }
        return html`
            <div id="upgrade">
                <b>${u.phase}</b>${u.fromVersion ? html` ${u.fromVersion} → ${u.toVersion}` : ''}
                ${u.observedSince ? html` · since ${u.observedSince}` : ''}
                · done: ${(u.done || []).join(', ') || '–'} · pending: ${(u.pending || []).join(', ') || '–'}
                ${stabilization && stabilization.convergedSince
                    ? html` · stable since ${stabilization.convergedSince}, window ${stabilization.window}` : ''}
            </div>`;
    }

    _components(s, gate) {
        const evidence = {};
        (gate ? gate.components : []).forEach(c => evidence[c.name] = c);
        return html`
            <table>
                <tr><th>Component</th><th>Gate sees</th><th>Versions (observed / expected)</th><th>Simulated operator</th><th>Make it…</th></tr>
                ${s.components.map(c => {
                    const e = evidence[c.name] || {};
                    return html`
                        <tr data-component="${c.name}">
                            <td>${c.name}</td>
                            <td class="${e.converged ? 'ok' : 'blocked'} verdict" data-blocked-by="${e.blockedBy || ''}">
                                ${e.converged ? 'converged' : html`<b>${e.blockedBy || 'unknown'}</b><br><small>${e.detail || ''}</small>`}
                            </td>
                            <td>${e.observedVersion || '–'} / ${e.expectedVersion || '–'}</td>
                            <td class="behaviour">${c.behaviour} at ${c.runningVersion}</td>
                            <td>${['healthy', 'silent', 'degraded', 'progressing', 'finish-upgrade'].map(a => html`
                                <button data-component="${c.name}" data-action="${a}" @click=${() => this._act(c.name, a)}>${a}</button>`)}
                            </td>
                        </tr>`;
                })}
            </table>`;
    }
}
customElements.define('qwc-hco-gate', QwcHcoGate);
