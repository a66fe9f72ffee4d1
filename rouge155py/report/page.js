(function(){
const data=JSON.parse(document.getElementById('data').textContent);
const table=document.getElementById('items-table');
const body=table.tBodies[0];
const rows=Array.from(body.rows);
const heads=Array.from(table.tHead.rows[0].cells);
const diffHead=heads[heads.length-1];
const controls=document.getElementById('item-controls');
controls.hidden=false;
function fill(select,values,chosen){values.forEach((v,k)=>{const o=document.createElement('option');o.value=k;o.textContent=v;if(k===chosen)o.selected=true;select.appendChild(o);});}
const dm=document.getElementById('diff-metric'),da=document.getElementById('diff-a'),db=document.getElementById('diff-b');
fill(dm,data.labels,0);fill(da,data.systems,0);fill(db,data.systems,data.systems.length>1?1:0);
function diffs(){
  const m=+dm.value,a=+da.value,b=+db.value;
  diffHead.hidden=data.systems.length<2;
  diffHead.textContent=data.systems[a]+' \u2212 '+data.systems[b]+' '+data.labels[m];
  rows.forEach(row=>{const s=data.scores[+row.dataset.item][m];let cell=row.querySelector('td.diff');
    if(!cell){cell=document.createElement('td');cell.className='diff';row.appendChild(cell);}
    cell.hidden=data.systems.length<2;
    const d=(s[a]==null||s[b]==null)?null:s[a]-s[b];cell.textContent=d==null?'':d.toFixed(5);cell.dataset.value=d==null?'':d;});
}
[dm,da,db].forEach(s=>s.addEventListener('change',diffs));diffs();
function value(row,col){
  if(col===0)return row.cells[0].textContent;
  const cell=col===heads.length-1?row.querySelector('td.diff'):row.cells[col];
  const v=parseFloat(cell.dataset.value!==undefined?cell.dataset.value:cell.textContent);
  return isNaN(v)?-Infinity:v;
}
const collator=new Intl.Collator(undefined,{numeric:true});
heads.forEach((head,col)=>head.addEventListener('click',()=>{
  const desc=!head.classList.contains('desc');
  heads.forEach(h=>h.classList.remove('asc','desc'));head.classList.add(desc?'desc':'asc');
  const sorted=rows.slice().sort((x,y)=>{const p=value(x,col),q=value(y,col);
    const c=col===0?collator.compare(p,q):(p<q?-1:p>q?1:0);return desc?-c:c;});
  sorted.forEach(r=>body.appendChild(r));
}));
const section=document.getElementById('item'),itemBody=document.getElementById('item-body'),sys=document.getElementById('item-system');
let current=null;
function words(sentences,marks){
  const out=document.createElement('div');
  sentences.forEach((sentence,i)=>{const p=document.createElement('p');p.className='sentence';
    sentence.forEach((w,j)=>{const span=document.createElement('span');const m=marks?parseInt(marks[i][j],16):0;
      const cls=[];if(m&1)cls.push('u');if(m&2)cls.push('b');if(m&4)cls.push('l');if(m&8)cls.push('s');
      span.className=cls.join(' ');span.textContent=w;p.appendChild(span);p.appendChild(document.createTextNode(' '));});
    out.appendChild(p);});
  return out;
}
function show(){
  if(current===null)return;
  const texts=data.texts&&data.texts[current];itemBody.textContent='';
  if(!texts){itemBody.textContent='The texts of this item are not in this report.';return;}
  const system=data.systems[+sys.value];const peer=texts.peers[system];
  if(!peer){itemBody.textContent='System '+system+' has no summary for this item.';return;}
  texts.references.forEach((reference,r)=>{
    const pair=document.createElement('div');pair.className='pair';
    const left=document.createElement('div'),right=document.createElement('div');
    const h1=document.createElement('h3');h1.textContent=system+' (against reference '+texts.reference_ids[r]+')';
    const h2=document.createElement('h3');h2.textContent='reference '+texts.reference_ids[r];
    left.appendChild(h1);left.appendChild(words(peer.words,peer.marks[r][0]));
    right.appendChild(h2);right.appendChild(words(reference,peer.marks[r][1]));
    pair.appendChild(left);pair.appendChild(right);itemBody.appendChild(pair);});
}
fill(sys,data.systems,0);sys.addEventListener('change',show);
['u','b','l'].forEach(k=>document.getElementById('show-'+k).addEventListener('change',e=>itemBody.classList.toggle('no-'+k,!e.target.checked)));
body.addEventListener('click',e=>{const row=e.target.closest('tr');if(!row)return;
  rows.forEach(r=>r.classList.remove('chosen'));row.classList.add('chosen');
  current=+row.dataset.item;document.getElementById('item-id').textContent=data.ids[current];
  section.hidden=false;show();section.scrollIntoView({block:'nearest'});});
})();
