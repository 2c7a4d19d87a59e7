#!/usr/bin/env python3
# Independent expected values for tests/unit/test_stats.c; not run by make test.
# Needs python3-scipy (Debian: /usr/bin/python3) and mpmath.
# Part 1: NIST data transcription check (exact rational arithmetic).
import statistics as S
from fractions import Fraction as F
mavro=[2.00180, 2.00170, 2.00180, 2.00190, 2.00180, 2.00170, 2.00150, 2.00140, 2.00150, 2.00150,
    2.00170, 2.00180, 2.00180, 2.00190, 2.00190, 2.00210, 2.00200, 2.00160, 2.00140, 2.00130,
    2.00130, 2.00150, 2.00150, 2.00160, 2.00150, 2.00140, 2.00130, 2.00140, 2.00150, 2.00140,
    2.00150, 2.00160, 2.00150, 2.00160, 2.00190, 2.00200, 2.00200, 2.00210, 2.00220, 2.00230,
    2.00240, 2.00250, 2.00270, 2.00260, 2.00260, 2.00260, 2.00270, 2.00260, 2.00250, 2.00240]
mich=[ 299.85, 299.74, 299.90, 300.07, 299.93, 299.85, 299.95, 299.98, 299.98,
            299.88, 300.00, 299.98, 299.93, 299.65, 299.76, 299.81, 300.00, 300.00,
            299.96, 299.96, 299.96, 299.94, 299.96, 299.94, 299.88, 299.80, 299.85,
            299.88, 299.90, 299.84, 299.83, 299.79, 299.81, 299.88, 299.88, 299.83,
            299.80, 299.79, 299.76, 299.80, 299.88, 299.88, 299.88, 299.86, 299.72,
            299.62, 299.86, 299.97, 299.95, 299.88, 299.91, 299.85, 299.87, 299.84,
            299.84, 299.85, 299.84, 299.84, 299.84, 299.89, 299.81, 299.81, 299.82,
            299.80, 299.77, 299.76, 299.74, 299.75, 299.76, 299.91, 299.92, 299.89,
            299.86, 299.88, 299.72, 299.84, 299.85, 299.85, 299.78, 299.89, 299.84,
            299.78, 299.81, 299.76, 299.81, 299.79, 299.81, 299.82, 299.85, 299.87,
            299.87, 299.81, 299.74, 299.81, 299.94, 299.95, 299.80, 299.81, 299.87, 299.72]
lew=[-213.0, -564.0, -35.0, -15.0, 141.0, 115.0, -420.0, -360.0, 203.0, -338.0, -431.0, 194.0, -220.0, -513.0, 154.0,
            -125.0, -559.0, 92.0, -21.0, -579.0, -52.0, 99.0, -543.0, -175.0, 162.0, -457.0, -346.0, 204.0, -300.0, -474.0,
            164.0, -107.0, -572.0, -8.0, 83.0, -541.0, -224.0, 180.0, -420.0, -374.0, 201.0, -236.0, -531.0, 83.0, 27.0,
            -564.0, -112.0, 131.0, -507.0, -254.0, 199.0, -311.0, -495.0, 143.0, -46.0, -579.0, -90.0, 136.0, -472.0, -338.0,
            202.0, -287.0, -477.0, 169.0, -124.0, -568.0, 17.0, 48.0, -568.0, -135.0, 162.0, -430.0, -422.0, 172.0, -74.0,
            -577.0, -13.0, 92.0, -534.0, -243.0, 194.0, -355.0, -465.0, 156.0, -81.0, -578.0, -64.0, 139.0, -449.0, -384.0,
            193.0, -198.0, -538.0, 110.0, -44.0, -577.0, -6.0, 66.0, -552.0, -164.0, 161.0, -460.0, -344.0, 205.0, -281.0,
            -504.0, 134.0, -28.0, -576.0, -118.0, 156.0, -437.0, -381.0, 200.0, -220.0, -540.0, 83.0, 11.0, -568.0, -160.0,
            172.0, -414.0, -408.0, 188.0, -125.0, -572.0, -32.0, 139.0, -492.0, -321.0, 205.0, -262.0, -504.0, 142.0, -83.0,
            -574.0, 0.0, 48.0, -571.0, -106.0, 137.0, -501.0, -266.0, 190.0, -391.0, -406.0, 194.0, -186.0, -553.0, 83.0, -13.0,
            -577.0, -49.0, 103.0, -515.0, -280.0, 201.0, 300.0, -506.0, 131.0, -45.0, -578.0, -80.0, 138.0, -462.0, -361.0,
            201.0, -211.0, -554.0, 32.0, 74.0, -533.0, -235.0, 187.0, -372.0, -442.0, 182.0, -147.0, -566.0, 25.0, 68.0,
            -535.0, -244.0, 194.0, -351.0, -463.0, 174.0, -125.0, -570.0, 15.0, 72.0, -550.0, -190.0, 172.0, -424.0, -385.0,
            198.0, -218.0, -536.0, 96.0]
def ex(x):
    fx=[F(str(v)) for v in x]
    m=sum(fx)/len(fx)
    var=sum((v-m)**2 for v in fx)/(len(fx)-1)
    return len(x), float(m), float(var)**0.5
for name,x,cm,cs in [("mavro",mavro,2.00185600000000,0.000429123454003053),("mich",mich,299.852400000000,0.0790105478190518),("lew",lew,-177.435000000000,277.332168044316)]:
    n,m,s=ex(x); print(name,n,m,s,cm,cs, abs(m-cm)/abs(cm), abs(s-cs)/cs)

# Part 2: SciPy values.
import numpy as np, scipy.stats as st
from scipy.optimize import brentq
A=[1.83,1.91,2.07,1.95,2.12,1.88,2.03,1.99,2.21,1.94]
B=[2.15,2.31,2.08,2.42,2.27,2.19,2.36,2.22,2.50,2.11,2.29,2.33]
C=[1,2,2,3,3,3,4,5,5,6]
D=[2,3,4,4,5,6,6,6,7,8,9]
p=lambda *a: print(*[repr(float(x)) if not isinstance(x,str) else x for x in a])
p("quantiles A", *np.quantile(A,[0.25,0.5,0.75]))
p("quantiles B", *np.quantile(B,[0.25,0.5,0.75]))
p("mad A", st.median_abs_deviation(A))
p("mad C", st.median_abs_deviation(C))
m=np.mean(A); s=np.std(A,ddof=1)
p("tint A", *st.t.interval(0.95, len(A)-1, loc=m, scale=s/np.sqrt(len(A))))
p("tint A 99", *st.t.interval(0.99, len(A)-1, loc=m, scale=s/np.sqrt(len(A))))
r=st.ttest_ind(A,B,equal_var=False); p("welch A,B", r.statistic, r.pvalue)
r=st.ttest_ind(C,D,equal_var=False); p("welch C,D", r.statistic, r.pvalue)
r=st.mannwhitneyu(B,A,alternative='two-sided',method='exact'); p("mw exact B,A", r.statistic, r.pvalue)
r=st.mannwhitneyu(D,C,alternative='two-sided',method='asymptotic'); p("mw asym D,C", r.statistic, r.pvalue)
# exact small overlapping, no ties
E=[3.1,4.7,2.2,5.9,4.1]; G=[4.4,6.3,5.2,3.6,7.5,6.8]
r=st.mannwhitneyu(G,E,alternative='two-sided',method='exact'); p("mw exact G,E", r.statistic, r.pvalue)
# large: 60 each, asymptotic
L1=[10+((i*37)%101)/10 for i in range(60)]; L2=[10.5+((i*53)%97)/10 for i in range(60)]
r=st.mannwhitneyu(L2,L1,alternative='two-sided',method='asymptotic'); p("mw asym L2,L1", r.statistic, r.pvalue)
# Fieller for mean(B)/mean(A), Welch df at the estimate; endpoints solved numerically
ma,mb=np.mean(A),np.mean(B); va=np.var(A,ddof=1)/len(A); vb=np.var(B,ddof=1)/len(B); th=mb/ma
df=(vb+th**2*va)**2/(vb**2/(len(B)-1)+th**4*va**2/(len(A)-1)); t=st.t.ppf(0.975,df)
f=lambda x:(mb-x*ma)**2-t*t*(vb+x*x*va)
p("fieller B/A", th, brentq(f,0.5,th), brentq(f,th,2.0), df)
# bimodality coefficient
def bc(x):
    n=len(x); g=st.skew(x,bias=False); k=st.kurtosis(x,bias=False)
    return (g*g+1)/(k+3*(n-1)**2/((n-2)*(n-3)))
p("bc A", bc(A)); bim=[1.0,1.1,0.9,1.05,0.95,1.02,2.0,2.1,1.9,2.05,1.95,2.02]; p("bc bim", bc(bim))
# median CI via binomial: largest k with 2*P(B<=k-1) <= 0.05
for n in (5,6,10,20,100):
    best=0
    for k in range(1,n//2+1):
        if 2*st.binom.cdf(k-1,n,0.5)<=0.05: best=k
        else: break
    p("medci n=%d"%n, best, n-best+1, 1-2*st.binom.cdf(best-1,n,0.5) if best else float('nan'))

# Part 3: mpmath values (SciPy 1.10.1 t.ppf is off by ~6e-11).
import mpmath as m, statistics as S
m.mp.dps=40
def Q(t,nu): x=nu/(nu+t*t); return m.mpf(1)/2*m.betainc(nu/m.mpf(2),m.mpf(1)/2,0,x,regularized=True)
def tq(c,nu): return m.findroot(lambda t: Q(t,nu)-(1-m.mpf(c))/2, 2.5)
A=[1.83,1.91,2.07,1.95,2.12,1.88,2.03,1.99,2.21,1.94]
B=[2.15,2.31,2.08,2.42,2.27,2.19,2.36,2.22,2.50,2.11,2.29,2.33]
mA=[m.mpf(str(v)) for v in A]; mB=[m.mpf(str(v)) for v in B]
def ms(x):
    n=len(x); mu=sum(x)/n; v=sum((a-mu)**2 for a in x)/(n-1); return mu,v
ma,sa2=ms(mA); mb,sb2=ms(mB)
for c in ('0.95','0.99'):
    h=tq(c,9)*m.sqrt(sa2/10); print(c, m.nstr(ma-h,17), m.nstr(ma+h,17))
va=sa2/10; vb=sb2/12; th=mb/ma
df=(vb+th**2*va)**2/(vb**2/11+th**4*va**2/9); t=tq('0.95',df)
f=lambda x:(mb-x*ma)**2-t*t*(vb+x*x*va)
print('fieller', m.nstr(th,17), m.nstr(m.findroot(f,1.08),17), m.nstr(m.findroot(f,1.2),17), m.nstr(df,17))

# Part 4: larger exact Mann-Whitney cases (SciPy).
import scipy.stats as st
x=[((i*7919)%1009)/7.0 for i in range(30)]; y=[((i*104729)%1013)/7.0+20 for i in range(40)]
r=st.mannwhitneyu(y,x,alternative='two-sided',method='exact'); print("mw exact 30/40", r.statistic, repr(r.pvalue))
x=[((i*7919)%1009)/7.0 for i in range(49)]; y=[((i*104729)%1013)/7.0+30 for i in range(49)]
r=st.mannwhitneyu(y,x,alternative='two-sided',method='exact'); print("mw exact 49/49", r.statistic, repr(r.pvalue))
