function direct_ties_reference(authorsDir, outFile)
% The points and best value of the authors' diRect.m (add-gp-bandits, utils/diRect.m, through their diRectWrap.m,
% which maximizes) on a 3-D function whose values tie exactly on a plateau: 2 everywhere but a bump of height 1
% within 0.2 of (0.55, -0.35, 0.7), as the UCB ties at its prior level far from every query. For several budgets
% given as opts.maxevals (the acquisition's call). benchmarks/authors_child_order.py compares our DIRECT with them;
% this writes, per budget, a line "case <maxevals> <n points> <best value> <best point>", then its points.
  addpath(fullfile(authorsDir, 'utils'));
  f = @(T) 2 + max(0, 1 - ((T(:,1)-0.55).^2 + (T(:,2)+0.35).^2 + (T(:,3)-0.7).^2) / 0.04);
  bounds = [-1 1; -1 1; -1 1];
  out = fopen(outFile, 'w');
  for budget = [9 21 31 60 100 200 400]
    opts = struct();
    opts.maxevals = budget;
    [value, x, history, queries] = diRectWrap(f, bounds, opts);
    n = history(end, 2);
    fprintf(out, 'case %d %d %.17g %.17g %.17g %.17g\n', budget, n, value, x);
    fprintf(out, '%.17g %.17g %.17g\n', queries(1:n, :)');
  end
  fclose(out);
end
