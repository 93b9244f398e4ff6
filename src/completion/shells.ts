/** The shells svc writes completion scripts for, and how each installs one. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const INSTALL: Record<Shell, string> = {
  bash: 'echo \'source <(svc completion bash)\' >> ~/.bashrc',
  zsh: "echo 'source <(svc completion zsh)' >> ~/.zshrc   # after compinit; or save it as _svc in $fpath",
  fish: 'svc completion fish > ~/.config/fish/completions/svc.fish',
};
